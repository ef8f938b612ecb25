#pragma once

#include <QString>
#include <QtGlobal>

namespace posenc {

// The IEEE 754 binary16 value of `bits`, exactly (every half is a float).
float halfToFloat(quint16 bits);
// The bfloat16 value of `bits`: the upper half of a float32, exactly.
float bfloat16ToFloat(quint16 bits);

// How one element of a file's array is stored, and its conversion to float32.
struct ElementType
{
    enum class Kind { Float, BFloat, Signed, Unsigned, Bool };

    Kind kind = Kind::Float;
    int bytes = 4; // 1, 2, 4 or 8
    bool bigEndian = false;

    // Converts `count` elements stored at `source` (no alignment needed) to float32. Integers
    // wider than 24 bits round to the nearest float32; NaN payloads and infinities are kept.
    void toFloat(const char *source, qsizetype count, float *destination) const;

    friend bool operator==(const ElementType &, const ElementType &) = default;
};

} // namespace posenc
