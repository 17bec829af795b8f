import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/reputation-domain',
  rootDir: import.meta.dirname,
};
