const IMAGE_SIZES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'] as const;

/**
 * An Image object made up from an id alone (`i<id>` GUIDs, every size listed): what the community's
 * stories still show. Guides, pages, avatars and search results show the media context's real
 * Image objects (`MediaImages` in `libs/media/contracts`); stories should move to it too.
 */
export function presentImage(id: number | null, baseUrl: string): Record<string, string | number> | null {
  if (id === null) return null;
  const guid = `i${id}`;
  const image: Record<string, string | number> = { id, guid };
  for (const size of IMAGE_SIZES) image[size] = `${baseUrl}/igi/${guid}.${size}`;
  image['original'] = `${baseUrl}/igi/${guid}.full`;
  return image;
}
