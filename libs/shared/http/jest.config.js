import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/shared-http',
  rootDir: import.meta.dirname,
};
