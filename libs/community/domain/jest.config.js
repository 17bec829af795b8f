import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/community-domain',
  rootDir: import.meta.dirname,
};
