import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/guides-contracts',
  rootDir: import.meta.dirname,
};
