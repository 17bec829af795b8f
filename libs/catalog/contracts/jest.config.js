import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/catalog-contracts',
  rootDir: import.meta.dirname,
};
