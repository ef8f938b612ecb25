#pragma once
// The families figure's test's float64 sums and parameters (tst_familiesfigure.cpp).
#include "support/TestFamily.h"

#include <cmath>
#include <cstdint>

namespace posenc::FamiliesFigureTest {

// PE[p] · PE[q] from the rows themselves: sin and cos of p w_i for each column (interleaved).
inline double peDot(std::int64_t d, double base, std::int64_t p, std::int64_t q)
{
    double sum = 0.0;
    for (std::int64_t j = 0; j < d; ++j) {
        const double w = std::exp(-double(j - j % 2) * std::log(base) / double(d));
        const double a = double(p) * w, b = double(q) * w;
        sum += j % 2 == 0 ? std::sin(a) * std::sin(b) : std::cos(a) * std::cos(b);
    }
    return sum;
}

// Every panel's family at the parameters its record draws it with (tests/families/<family>/).
inline Params settings(std::int64_t maxLen, bool flipped = false)
{
    Params p;
    p.maxLen = maxLen;
    p.dModel = 64;
    // A model that attends both ways masks no key, in any panel (FamiliesModel::panelParams).
    p.batch.attention = Attention::BothWays;
    for (const TestFamily &family : TestFamilies::all())
        if (family.panelParams)
            p = family.panelParams(p, flipped);
    return p;
}

} // namespace posenc::FamiliesFigureTest
