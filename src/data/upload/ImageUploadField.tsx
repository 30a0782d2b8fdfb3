import type { ReactElement } from 'react';
import { ImageUpload, type ImageUploadProps } from '../../components/upload/ImageUpload';
import { useImageUpload } from './useImageUpload';

/** A photo field of a form, connected to the upload calls (identity verification, deposit proofs). */
export function ImageUploadField(
  props: Omit<ImageUploadProps, 'upload'> & { onChange: (id: number | null) => void },
): ReactElement {
  const { onChange, ...view } = props;
  return <ImageUpload {...view} upload={useImageUpload(props.value, onChange)} />;
}
