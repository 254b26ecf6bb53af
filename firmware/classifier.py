# Ball colour from a colour sensor's counts: the nearest learned reference colour.
# Pure integer arithmetic (the ESP32's small ints are 31 bits: every product below
# stays under 2**30); classify() allocates nothing.
from array import array

from micropython import const

_SCALE = const(1000)  # chromaticities are per mille of the clear count


class Classifier:
    """Nearest learned reference colour of one sensor. refs: (cls, r, g, b, clear,
    min_clear, max_dist) per learned ball, r/g/b = 1000 * red/clear ... ; several refs
    may name one class. classify() is the class (1-based) of the nearest reference
    whose max_dist (Euclidean, in per mille) the reading is within and whose
    min_clear it reaches; 0 when none is, when references of two classes are, or
    when the sensor is saturated: then the host asks the referee."""

    def __init__(self, refs):
        n = len(refs)
        self.n = n
        self.cls = bytearray(n)
        self.r = array("h", [0] * n)
        self.g = array("h", [0] * n)
        self.b = array("h", [0] * n)
        self.min_c = array("H", [0] * n)
        self.max_d2 = array("i", [0] * n)  # squared: at most 1000**2
        for i, ref in enumerate(refs):
            self.cls[i] = ref[0]
            self.r[i] = ref[1]
            self.g[i] = ref[2]
            self.b[i] = ref[3]
            self.min_c[i] = ref[5]
            self.max_d2[i] = ref[6] * ref[6]

    def classify(self, rgbc, full):
        """Class of the counts in rgbc (clear, red, green, blue) or 0. full: the clear
        count's ceiling at this integration time. Does not allocate."""
        c = rgbc[0]
        if c == 0 or c >= full:
            return 0
        r = min(rgbc[1] * _SCALE // c, 2000)  # 65535 * 1000 < 2**30
        g = min(rgbc[2] * _SCALE // c, 2000)
        b = min(rgbc[3] * _SCALE // c, 2000)
        best = 0
        best_d2 = 0x3FFFFFFF
        for i in range(self.n):
            if c < self.min_c[i]:
                continue
            dr = r - self.r[i]
            dg = g - self.g[i]
            db = b - self.b[i]
            d2 = dr * dr + dg * dg + db * db  # at most 3 * 3000**2 < 2**30
            if d2 > self.max_d2[i]:
                continue
            k = self.cls[i]
            if best and k != best:
                return 0  # two balls' references match: ambiguous
            if d2 < best_d2:
                best = k
                best_d2 = d2
        return best
