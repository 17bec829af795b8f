const IMAGE_SIZES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'] as const;

/** The Image object (reference §3.1), shown by guides, pages and search results. Images are addressed by id: `/igi/<guid>.<size>`. */
export function presentImage(id: number | null, baseUrl: string): Record<string, string | number> | null {
  if (id === null) return null;
  const guid = `i${id}`;
  const image: Record<string, string | number> = { id, guid };
  for (const size of IMAGE_SIZES) image[size] = `${baseUrl}/igi/${guid}.${size}`;
  image['original'] = `${baseUrl}/igi/${guid}.full`;
  return image;
}
