import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/guides-http',
  rootDir: import.meta.dirname,
};
