import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/reputation-http',
  rootDir: import.meta.dirname,
};
