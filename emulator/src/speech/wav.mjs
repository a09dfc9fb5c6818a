/** Minimal RIFF/WAVE reading: enough for eSpeak's output and for STT energy analysis of uploads. */

/**
 * @typedef {object} WavInfo
 * @property {'pcm'|'float'} encoding
 * @property {number} channels
 * @property {number} sampleRate
 * @property {number} bitsPerSample
 * @property {number} dataOffset  byte offset of the sample data in the file
 * @property {number} dataLength  byte length of the sample data (clamped to the file when known)
 */

/**
 * Parses the header of a WAV file from its first bytes (the data chunk itself need not be present).
 * @param {Buffer} head  the start of the file (64 KiB is plenty for normal files)
 * @param {number} [fileSize] total file size, to clamp a wrong or "streaming" (0xFFFFFFFF) data length
 * @returns {WavInfo | null} null when this is not a WAV the emulator can read
 */
export function parseWavHeader(head, fileSize = head.length) {
  if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return null;
  /** @type {Partial<WavInfo>} */
  let format = {};
  let offset = 12;
  while (offset + 8 <= head.length) {
    const id = head.toString('latin1', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= head.length) {
      let tag = head.readUInt16LE(body);
      // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of the sub-format GUID.
      if (tag === 0xfffe && size >= 40 && body + 26 <= head.length) tag = head.readUInt16LE(body + 24);
      if (tag !== 1 && tag !== 3) return null;
      format = {
        encoding: tag === 1 ? 'pcm' : 'float',
        channels: head.readUInt16LE(body + 2),
        sampleRate: head.readUInt32LE(body + 4),
        bitsPerSample: head.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format.encoding || !format.channels || !format.sampleRate) return null;
      const supported =
        format.encoding === 'pcm' ? [8, 16, 24, 32].includes(/** @type {number} */ (format.bitsPerSample)) : format.bitsPerSample === 32;
      if (!supported) return null;
      return /** @type {WavInfo} */ ({ ...format, dataOffset: body, dataLength: Math.min(size, fileSize - body) });
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  return null;
}

/**
 * Reads one sample (first channel) as a float in [-1, 1].
 * @param {Buffer} buf @param {number} pos byte offset @param {WavInfo} info
 */
export function readSample(buf, pos, info) {
  if (info.encoding === 'float') return buf.readFloatLE(pos);
  switch (info.bitsPerSample) {
    case 8:
      return (buf[pos] - 128) / 128;
    case 16:
      return buf.readInt16LE(pos) / 32768;
    case 24:
      return buf.readIntLE(pos, 3) / 8388608;
    default:
      return buf.readInt32LE(pos) / 2147483648;
  }
}

/**
 * The 16-bit mono samples of an in-memory WAV (eSpeak output).
 * @param {Uint8Array} bytes
 * @returns {{ samples: Int16Array, sampleRate: number }}
 */
export function decodePcm16Mono(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info = parseWavHeader(buf);
  if (!info || info.encoding !== 'pcm' || info.bitsPerSample !== 16 || info.channels !== 1) {
    throw new Error('Synthesizer did not return 16-bit mono PCM WAV.');
  }
  // Copy into an aligned buffer: the data offset may be odd relative to the underlying ArrayBuffer.
  const data = buf.subarray(info.dataOffset, info.dataOffset + info.dataLength - (info.dataLength % 2));
  const samples = new Int16Array(data.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
  return { samples, sampleRate: info.sampleRate };
}
