#pragma once

// What RoPE's frequency tests (tst_ropefrequencies, tst_ropescalingfrequencies) share: parameters
// of a rope_type, a closeness test and a list comparison, the published models' settings.
#include "core/rope/RopeFrequencies.h"
#include "support/RopeReference.h"
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

namespace RopeFrequencyTesting {

using namespace posenc;
using namespace Qt::StringLiterals;

constexpr double kTwoPi = 2.0 * std::numbers::pi;
const double kUnset = std::numeric_limits<double>::quiet_NaN(); // a data column's unset optional

inline std::optional<double> given(double v)
{
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
}

inline Params ropeParams(std::int64_t headDim, double theta, RopeType type)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = std::max<std::int64_t>(headDim, 64);
    p.maxLen = 1024;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    p.rope.type = type;
    return p;
}

// Relative agreement, 0 = 0 exactly.
inline bool close(double a, double b, double relative = 1e-13)
{
    return a == b || std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

inline void compareLists(const std::vector<double> &got, const std::vector<double> &want, const char *what,
                         double relative = 1e-13)
{
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(close(got[i], want[i], relative),
                 qPrintable(u"%1[%2]: %3, expected %4"_s.arg(QString::fromLatin1(what))
                                .arg(i)
                                .arg(got[i], 0, 'g', 17)
                                .arg(want[i], 0, 'g', 17)));
}

// Phi-3-mini-128k-instruct's rope_scaling lists (June 2024 revision), 48 each for head_dim 96.
const std::vector<double> kPhi3Short = {1.1,
                                        1.1,
                                        1.1,
                                        1.3000000000000003,
                                        1.3500000000000003,
                                        1.3500000000000003,
                                        1.4000000000000004,
                                        1.5500000000000005,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.1000000000000005,
                                        2.1000000000000005,
                                        2.1500000000000004,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.3999999999999995,
                                        2.4499999999999993,
                                        2.499999999999999,
                                        2.6999999999999984,
                                        2.6999999999999984,
                                        2.7499999999999982,
                                        2.799999999999998,
                                        2.8999999999999977,
                                        3.049999999999997};
const std::vector<double> kPhi3Long
    = {1.0700000524520874, 1.1200000047683716, 1.149999976158142,  1.4199999570846558, 1.5699999332427979,
       1.7999999523162842, 2.129999876022339,  2.129999876022339,  3.009999990463257,  5.910000324249268,
       6.950000286102295,  9.070000648498535,  9.930000305175781,  10.710000038146973, 11.130000114440918,
       14.609999656677246, 15.409998893737793, 19.809999465942383, 37.279998779296875, 38.279998779296875,
       38.599998474121094, 40.12000274658203,  46.20000457763672,  50.940006256103516, 53.66000747680664,
       54.9373893737793,   56.89738845825195,  57.28738784790039,  59.98738479614258,  60.86738586425781,
       60.887386322021484, 61.71739196777344,  62.91739273071289,  62.957393646240234, 63.41739273071289,
       63.8173942565918,   63.83739471435547,  63.897396087646484, 63.93739700317383,  64.06739807128906,
       64.11434936523438,  64.12435150146484,  64.15435028076172,  64.19435119628906,  64.24435424804688,
       64.57435607910156,  64.69000244140625,  64.76000213623047};

// A config of each real model the tests name.
inline Params deepSeekV3()
{
    Params p = ropeParams(64, 10000.0, RopeType::Yarn); // qk_rope_head_dim 64
    p.maxLen = 163840;
    p.rope.factor = 40.0;
    p.rope.mscale = 1.0;
    p.rope.mscaleAllDim = 1.0;
    p.rope.originalMaxLen = 4096;
    return p;
}

inline Params phi3Mini128k(std::int64_t maxLen)
{
    Params p = ropeParams(96, 10000.0, RopeType::LongRope);
    p.maxLen = maxLen;
    p.rope.originalMaxLen = 4096;
    p.rope.factor = 32.0; // HF: max_position_embeddings 131072 / original 4096
    p.rope.shortFactor = kPhi3Short;
    p.rope.longFactor = kPhi3Long;
    return p;
}

} // namespace RopeFrequencyTesting
