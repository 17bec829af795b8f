import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/teams-http',
  rootDir: import.meta.dirname,
};
