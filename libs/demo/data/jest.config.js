import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/demo-data',
  rootDir: import.meta.dirname,
};
