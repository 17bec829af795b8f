import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/catalog-domain',
  rootDir: import.meta.dirname,
};
