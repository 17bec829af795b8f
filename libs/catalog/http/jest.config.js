import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/catalog-http',
  rootDir: import.meta.dirname,
};
