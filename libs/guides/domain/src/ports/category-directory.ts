/** The categories guides may belong to, as the catalog context knows them (read through this port only). */
export abstract class CategoryDirectory {
  abstract exists(title: string): Promise<boolean>;
}
