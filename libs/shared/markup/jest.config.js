import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/shared-markup',
  rootDir: import.meta.dirname,
};
