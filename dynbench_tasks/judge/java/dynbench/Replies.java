package dynbench;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The runner's replies to the judge, each frame authenticated: its length, its bytes, and
 * HMAC-SHA256 over the frame's number and bytes, keyed by the secret the judge sent this JVM before
 * any program code ran. A judged program may write into the reply pipe by whatever route it finds, but
 * it never holds the key (module dynbench is never opened, and its JVM has no /proc to read memory
 * through and nowhere to write native code), so whatever it writes fails the check and fails its test. SHA-256 by hand: javax.crypto's provider lookup costs every fresh JVM milliseconds.
 */
final class Replies {
    private static final int BLOCK = 64;
    private static final int[] K = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };

    private final OutputStream out;
    private final byte[] innerKey = new byte[BLOCK], outerKey = new byte[BLOCK];
    private int sent;

    /** Replies on {@code out}, keyed by {@code secret} (at most 64 bytes), which is wiped here. */
    Replies(OutputStream out, byte[] secret) {
        this.out = out;
        for (int i = 0; i < BLOCK; i++) {
            byte key = i < secret.length ? secret[i] : 0;
            innerKey[i] = (byte) (key ^ 0x36);
            outerKey[i] = (byte) (key ^ 0x5c);
        }
        Arrays.fill(secret, (byte) 0);
    }

    void send(byte[] frame) throws IOException {
        byte[] number = intBytes(sent++);
        byte[] tag = sha256(outerKey, sha256(innerKey, number, frame));
        out.write(intBytes(frame.length));
        out.write(frame);
        out.write(tag);
        out.flush();
    }

    private static byte[] intBytes(int value) {
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    /** SHA-256 (FIPS 180-4) of the parts, one after the other. */
    static byte[] sha256(byte[]... parts) {
        long length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        int padded = (int) ((length + 8) / BLOCK + 1) * BLOCK;
        byte[] message = new byte[padded];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, message, at, part.length);
            at += part.length;
        }
        message[at] = (byte) 0x80;
        long bits = length * 8;
        for (int i = 0; i < 8; i++) {
            message[padded - 1 - i] = (byte) (bits >>> (8 * i));
        }
        int[] h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
        int[] w = new int[64];
        for (int block = 0; block < padded; block += BLOCK) {
            for (int t = 0; t < 16; t++) {
                int i = block + 4 * t;
                w[t] = (message[i] & 0xff) << 24 | (message[i + 1] & 0xff) << 16 | (message[i + 2] & 0xff) << 8
                       | (message[i + 3] & 0xff);
            }
            for (int t = 16; t < 64; t++) {
                int s0 = Integer.rotateRight(w[t - 15], 7) ^ Integer.rotateRight(w[t - 15], 18) ^ (w[t - 15] >>> 3);
                int s1 = Integer.rotateRight(w[t - 2], 17) ^ Integer.rotateRight(w[t - 2], 19) ^ (w[t - 2] >>> 10);
                w[t] = w[t - 16] + s0 + w[t - 7] + s1;
            }
            int a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
            for (int t = 0; t < 64; t++) {
                int t1 = k + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25))
                         + ((e & f) ^ (~e & g)) + K[t] + w[t];
                int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22))
                         + ((a & b) ^ (a & c) ^ (b & c));
                k = g;
                g = f;
                f = e;
                e = d + t1;
                d = c;
                c = b;
                b = a;
                a = t1 + t2;
            }
            h[0] += a;
            h[1] += b;
            h[2] += c;
            h[3] += d;
            h[4] += e;
            h[5] += f;
            h[6] += g;
            h[7] += k;
        }
        byte[] digest = new byte[32];
        for (int i = 0; i < 8; i++) {
            System.arraycopy(intBytes(h[i]), 0, digest, 4 * i, 4);
        }
        return digest;
    }
}
