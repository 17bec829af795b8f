import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/webhooks-domain',
  rootDir: import.meta.dirname,
};
