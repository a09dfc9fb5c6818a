/**
 * Speech/silence segmentation of a WAV file by frame energy — the most the emulator can honestly
 * say about audio it did not make. It finds *where* sound is, never *what* is said.
 */
import { open } from 'node:fs/promises';
import { parseWavHeader, readSample } from '../speech/wav.mjs';

const FRAME_SEC = 0.02;
const MIN_GAP_SEC = 0.3; // pauses shorter than this stay inside one segment
const MIN_SEGMENT_SEC = 0.1; // shorter bursts are clicks, not speech
const ABSOLUTE_FLOOR_RMS = 0.01; // about -40 dBFS

/**
 * @param {string} path
 * @returns {Promise<{ start: number, end: number }[] | null>} null when the file is not a readable WAV
 */
export async function wavSoundSegments(path) {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await file.read(head, 0, head.length, 0);
    const info = parseWavHeader(head, size);
    if (!info) return null;

    const bytesPerSample = info.bitsPerSample / 8;
    const blockAlign = bytesPerSample * info.channels;
    const samplesPerFrame = Math.max(1, Math.round(info.sampleRate * FRAME_SEC));
    const frameBytes = samplesPerFrame * blockAlign;
    const framesPerRead = Math.max(1, Math.floor((1 << 20) / frameBytes));
    const buffer = Buffer.alloc(framesPerRead * frameBytes);
    /** @type {number[]} */
    const frameRms = [];
    for (let offset = 0; offset < info.dataLength; offset += buffer.length) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, info.dataLength - offset), info.dataOffset + offset);
      if (bytesRead === 0) break;
      for (let frameStart = 0; frameStart + blockAlign <= bytesRead; frameStart += frameBytes) {
        let sum = 0;
        let n = 0;
        for (let pos = frameStart; pos + bytesPerSample <= Math.min(frameStart + frameBytes, bytesRead); pos += blockAlign) {
          const s = readSample(buffer, pos, info); // first channel is enough to find sound
          sum += s * s;
          n++;
        }
        frameRms.push(n ? Math.sqrt(sum / n) : 0);
      }
    }
    return segmentsFromEnergy(frameRms, samplesPerFrame / info.sampleRate);
  } finally {
    await file.close();
  }
}

/**
 * Frames louder than a threshold (relative to the recording's own peak and noise floor) are
 * sound; close runs are merged and tiny ones dropped.
 * @param {number[]} frameRms @param {number} frameSec
 */
export function segmentsFromEnergy(frameRms, frameSec) {
  if (frameRms.length === 0) return [];
  const sorted = [...frameRms].sort((a, b) => a - b);
  const noiseFloor = sorted[Math.floor(sorted.length * 0.1)];
  const peak = sorted[sorted.length - 1];
  const threshold = Math.max(ABSOLUTE_FLOOR_RMS, noiseFloor * 3, peak * 0.05);

  /** @type {{ start: number, end: number }[]} */
  const segments = [];
  frameRms.forEach((rms, i) => {
    if (rms < threshold) return;
    const start = i * frameSec;
    const end = (i + 1) * frameSec;
    const last = segments[segments.length - 1];
    if (last && start - last.end < MIN_GAP_SEC) last.end = end;
    else segments.push({ start, end });
  });
  return segments.filter((s) => s.end - s.start >= MIN_SEGMENT_SEC);
}
