#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

// The product of non-negative factors, or nothing when it does not fit a signed 64-bit size.
inline std::optional<std::int64_t> checkedProduct(const std::vector<std::int64_t> &factors)
{
    std::int64_t product = 1;
    for (const std::int64_t f : factors) {
        if (f < 0 || __builtin_mul_overflow(product, f, &product))
            return std::nullopt;
    }
    return product;
}

inline std::optional<std::int64_t> checkedProduct(std::int64_t a, std::int64_t b)
{
    return checkedProduct(std::vector<std::int64_t> {a, b});
}

} // namespace posenc
