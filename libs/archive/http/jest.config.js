import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/archive-http',
  rootDir: import.meta.dirname,
};
