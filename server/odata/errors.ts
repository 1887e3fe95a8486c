/** The query options this module parses, under their canonical lowercase `$` names. */
export type ODataOptionName = '$filter' | '$orderby' | '$select' | '$top' | '$skip';

/** A query option that cannot be served: the server answers it with a 400 problem response. */
export class ODataError extends Error {
  override readonly name = 'ODataError';
  /** The option at fault: a canonical name, or the name exactly as sent for options we do not support. */
  readonly option: string;
  /** 0-based offset (UTF-16 code units) in that option's decoded text where parsing failed or the unsupported construct starts. */
  readonly position: number;
  /** What is wrong, without the option and position prefix/suffix. */
  readonly detail: string;

  constructor(option: string, position: number, detail: string) {
    super(`${option}: ${detail} at position ${position}`);
    this.option = option;
    this.position = position;
    this.detail = detail;
  }
}
