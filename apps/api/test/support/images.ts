/**
 * An Image object (reference §3.1) of an uploaded image: its id, GUID and `original`, and whichever
 * sizes the background jobs have made by then.
 */
export const anImage = (id: number | unknown = expect.any(Number)) =>
  expect.objectContaining({ id, guid: expect.stringMatching(/^[A-Za-z][A-Za-z0-9]{15}$/), original: expect.stringMatching(/\/igi\/[A-Za-z][A-Za-z0-9]{15}(-[0-9]+)?\.full$/) });
