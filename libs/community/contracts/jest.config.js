import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/community-contracts',
  rootDir: import.meta.dirname,
};
