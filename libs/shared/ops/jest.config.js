import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/shared-ops',
  rootDir: import.meta.dirname,
};
