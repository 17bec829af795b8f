import { fileTypeFromBuffer } from 'file-type';
import { MediaTypeSniffer } from '@rc/media-domain';

/** File types by their magic numbers (`file-type`). */
export class FileTypeSniffer extends MediaTypeSniffer {
  async sniff(head: Uint8Array): Promise<{ ext: string; mime: string } | null> {
    const type = await fileTypeFromBuffer(head);
    return type ? { ext: type.ext, mime: type.mime } : null;
  }
}
