import { describe, expect, it } from 'vitest';
import { TransferRate } from '../../../../electron/uploads/transfer-rate';

describe('TransferRate', () => {
  it('knows no rate until its samples span long enough', () => {
    const rate = new TransferRate(5_000);
    rate.record(0, 0);
    rate.record(100, 1_000_000);
    expect(rate.bytesPerSecond()).toBeNull();
    expect(rate.secondsLeft(10_000_000)).toBeNull();
  });

  it('measures over the window only, so a stall shows at once', () => {
    const rate = new TransferRate(2_000);
    rate.record(0, 0);
    rate.record(1_000, 10_000_000);
    expect(rate.bytesPerSecond()).toBe(10_000_000);
    expect(rate.secondsLeft(30_000_000)).toBe(2);
    // Nothing moves for four seconds: the samples of the fast start fall out of the window.
    rate.record(3_000, 10_000_000);
    rate.record(5_000, 10_000_000);
    expect(rate.bytesPerSecond()).toBe(0);
    expect(rate.secondsLeft(30_000_000)).toBeNull();
  });

  it('keeps the one sample before the window, so the window is covered from its start', () => {
    const rate = new TransferRate(1_000);
    rate.record(0, 0);
    rate.record(900, 900);
    rate.record(1_500, 1_500);
    expect(rate.bytesPerSecond()).toBe(1_000);
  });

  it('starts over when the count goes back (the call was tried again)', () => {
    const rate = new TransferRate(5_000);
    rate.record(0, 0);
    rate.record(1_000, 5_000_000);
    rate.record(1_100, 0);
    expect(rate.bytesPerSecond()).toBeNull();
    rate.record(2_100, 1_000_000);
    expect(rate.bytesPerSecond()).toBe(1_000_000);
  });
});
