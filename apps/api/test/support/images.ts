import { plainJpeg } from './media-files.js';

/**
 * An Image object (reference §3.1) of an uploaded image: its id, GUID and `original`, and whichever
 * sizes the background jobs have made by then.
 */
export const anImage = (id: number | unknown = expect.any(Number)) =>
  expect.objectContaining({ id, guid: expect.stringMatching(/^[A-Za-z][A-Za-z0-9]{15}$/), original: expect.stringMatching(/\/igi\/[A-Za-z][A-Za-z0-9]{15}(-[0-9]+)?\.full$/) });

/** Uploads a small JPEG to the library of the token's user: its Image object. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function uploadImage(api: { raw(method: string, path: string, init?: RequestInit): Promise<{ status: number; body: any }> }, token: string, name = 'picture.jpg'): Promise<{ id: number; guid: string; original: string }> {
  const res = await api.raw('POST', `/api/2.0/user/media/images?file=${encodeURIComponent(name)}`, { headers: { Authorization: `api ${token}` }, body: await plainJpeg(200, 150) });
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.image;
}
