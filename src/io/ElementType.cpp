#include "io/ElementType.h"

#include <QtEndian>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace posenc {

float halfToFloat(quint16 bits)
{
    const std::uint32_t sign = std::uint32_t(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    const std::uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        // Zero or subnormal: mantissa * 2^-24, exact in float32.
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0x1f)
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

float bfloat16ToFloat(quint16 bits)
{
    return std::bit_cast<float>(std::uint32_t(bits) << 16);
}

namespace {

template<typename Word> Word load(const char *source, bool bigEndian)
{
    Word word;
    std::memcpy(&word, source, sizeof(Word));
    if constexpr (sizeof(Word) > 1) {
        if (bigEndian != (std::endian::native == std::endian::big))
            word = qbswap(word);
    }
    return word;
}

// One loop per element type, so the type is decided once per chunk, not once per element.
template<typename Convert> void convertAll(const char *source, qsizetype count, int bytes, float *out, Convert convert)
{
    for (qsizetype i = 0; i < count; ++i)
        out[i] = convert(source + i * bytes);
}

} // namespace

void ElementType::toFloat(const char *source, qsizetype count, float *destination) const
{
    const bool big = bigEndian;
    switch (kind) {
    case Kind::Float:
        if (bytes == 2)
            return convertAll(source, count, 2, destination,
                              [big](const char *s) { return halfToFloat(load<std::uint16_t>(s, big)); });
        if (bytes == 4)
            return convertAll(source, count, 4, destination,
                              [big](const char *s) { return std::bit_cast<float>(load<std::uint32_t>(s, big)); });
        return convertAll(source, count, 8, destination, [big](const char *s) {
            return static_cast<float>(std::bit_cast<double>(load<std::uint64_t>(s, big)));
        });
    case Kind::BFloat:
        return convertAll(source, count, 2, destination,
                          [big](const char *s) { return bfloat16ToFloat(load<std::uint16_t>(s, big)); });
    case Kind::Bool:
        return convertAll(source, count, 1, destination, [](const char *s) { return *s != 0 ? 1.0f : 0.0f; });
    case Kind::Signed:
        switch (bytes) {
        case 1:
            return convertAll(source, count, 1, destination,
                              [big](const char *s) { return static_cast<float>(load<std::int8_t>(s, big)); });
        case 2:
            return convertAll(source, count, 2, destination, [big](const char *s) {
                return static_cast<float>(std::bit_cast<std::int16_t>(load<std::uint16_t>(s, big)));
            });
        case 4:
            return convertAll(source, count, 4, destination, [big](const char *s) {
                return static_cast<float>(std::bit_cast<std::int32_t>(load<std::uint32_t>(s, big)));
            });
        default:
            return convertAll(source, count, 8, destination, [big](const char *s) {
                return static_cast<float>(std::bit_cast<std::int64_t>(load<std::uint64_t>(s, big)));
            });
        }
    case Kind::Unsigned:
        switch (bytes) {
        case 1:
            return convertAll(source, count, 1, destination,
                              [big](const char *s) { return static_cast<float>(load<std::uint8_t>(s, big)); });
        case 2:
            return convertAll(source, count, 2, destination,
                              [big](const char *s) { return static_cast<float>(load<std::uint16_t>(s, big)); });
        case 4:
            return convertAll(source, count, 4, destination,
                              [big](const char *s) { return static_cast<float>(load<std::uint32_t>(s, big)); });
        default:
            return convertAll(source, count, 8, destination,
                              [big](const char *s) { return static_cast<float>(load<std::uint64_t>(s, big)); });
        }
    }
}

} // namespace posenc
