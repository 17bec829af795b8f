import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/guides-domain',
  rootDir: import.meta.dirname,
};
