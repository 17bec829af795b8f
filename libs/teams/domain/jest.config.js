import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/teams-domain',
  rootDir: import.meta.dirname,
};
