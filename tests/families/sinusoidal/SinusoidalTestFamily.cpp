// The sinusoid's test record (tests/support/TestFamily.h): its PE against the float64 sums of
// support/SinusoidalReference.h. Its figures are drawn from the tests' own parameters.
#include "support/SinusoidalReference.h"
#include "support/TestFamily.h"

#include <cmath>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

QList<TestRoundTrip> roundTrips(bool longMode)
{
    QList<TestRoundTrip> cases;
    QList<std::int64_t> widths {1, 2, 3, 4, 5, 7, 64, 127, 512};
    QList<std::int64_t> lengths {1, 2, 3, 50, 2048};
    if (longMode) {
        widths += {4096, 8191};
        lengths.append(65536);
    }
    for (const std::int64_t d : widths) {
        for (const std::int64_t L : lengths) {
            for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
                Params p;
                p.encoding = Encoding::Sinusoidal;
                p.dModel = d;
                p.maxLen = L;
                p.sinusoidal.layout = layout;
                const QString unknown = d == 1 && L == 1 ? u"every cell is 0"_s : QString();
                cases.append(
                    {u"pe d %1 L %2 %3"_s.arg(d).arg(L).arg(layout == Layout::Split ? u"split"_s : u"interleaved"_s), p,
                     u"pe"_s, unknown});
            }
        }
    }
    for (const double base : {500.0, 1e6, 123456.0}) {
        Params p;
        p.encoding = Encoding::Sinusoidal;
        p.dModel = 64;
        p.maxLen = 2048;
        p.sinusoidal.base = base;
        cases.append({u"pe base %1"_s.arg(base), p, u"pe"_s, {}});
    }
    for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
        Params p;
        p.encoding = Encoding::Sinusoidal;
        p.dModel = 128;
        p.maxLen = 4096;
        p.sinusoidal.layout = layout;
        p.sinusoidal.angles = Angles::Float32;
        cases.append({u"pe float32 angles %1"_s.arg(int(layout)), p, u"pe"_s, {}});
    }
    return cases;
}

} // namespace

POSENC_TEST_FAMILY(Sinusoidal)
{
    TestFamily f;
    f.changes = {{u"base"_s, u"500"_s},       {u"layout"_s, u"split"_s},
                 {u"angles"_s, u"float32"_s}, {u"flip-sin-to-cos"_s, u"true"_s},
                 {u"freq-shift"_s, u"1"_s},   {u"timestep-scale"_s, u"1000"_s}};
    f.settings = {
        {u"float32 split"_s, {{u"angles"_s, u"float32"_s}, {u"layout"_s, u"split"_s}}},
        {u"diffusers' timestep embedding"_s,
         {{u"layout"_s, u"split"_s},
          {u"flip-sin-to-cos"_s, u"true"_s},
          {u"freq-shift"_s, u"1"_s},
          {u"timestep-scale"_s, u"1000"_s}}},
    };
    for (const QString &layout : {u"interleaved"_s, u"split"_s}) {
        TestReference pe;
        pe.name = u"pe "_s + layout;
        pe.quantity = posenc::Quantity::Pe;
        pe.dModel = 16;
        pe.maxLen = 40;
        pe.setting = {{u"layout"_s, layout}, {u"base"_s, u"500"_s}};
        pe.cell = [](const posenc::Params &p, std::int64_t row, std::int64_t column) {
            return ReferenceCell {
                reference::preciseValue(row, column, p.dModel, p.sinusoidal.base, p.sinusoidal.layout), 1e-6};
        };
        f.references.append(pe);
    }
    f.roundTrips = roundTrips;
    f.quantities = {u"error"_s};
    f.presets = {u"annotated-transformer"_s, u"fairseq-init"_s,        u"pytorch-embedding"_s, u"tensorflow-tutorial"_s,
                 u"transformer-base"_s,      u"transformer-big"_s,     u"whisper-large-v3"_s,  u"sd-1-5-timestep"_s,
                 u"sdxl-timestep"_s,         u"flux-1-dev-timestep"_s, u"wan-2-1-timestep"_s};
    f.idleSettings = {f.settings.constFirst(),
                      {u"diffusers' order"_s, {{u"layout"_s, u"split"_s}, {u"flip-sin-to-cos"_s, u"true"_s}}}};
    f.otherValues = {
        {u"base"_s, {u"500"_s, u"10000"_s}},       {u"layout"_s, {u"split"_s, u"interleaved"_s}},
        {u"angles"_s, {u"float32"_s, u"exact"_s}}, {u"flip-sin-to-cos"_s, {u"true"_s, u"false"_s}},
        {u"freq-shift"_s, {u"1"_s, u"0"_s}},       {u"timestep-scale"_s, {u"1000"_s, u"1"_s}},
    };
    // Its panel: PE[q]·PE[q + k] from its rows, sin and cos of p w_i for each column (interleaved),
    // each offset its own pixel.
    f.panel = [](const posenc::Params &p, std::int64_t q, const TestPanel &drawn) -> std::optional<QString> {
        if (drawn.curve.offset.size() != drawn.pixels.count())
            return u"%1 points for %2 offsets"_s.arg(drawn.curve.offset.size()).arg(drawn.pixels.count());
        for (std::int64_t k = drawn.pixels.first; k <= drawn.pixels.last; ++k) {
            double dot = 0.0;
            for (std::int64_t j = 0; j < p.dModel; ++j) {
                const double w = std::exp(-double(j - j % 2) * std::log(p.sinusoidal.base) / double(p.dModel));
                const double a = double(q) * w, b = double(q + k) * w;
                dot += j % 2 == 0 ? std::sin(a) * std::sin(b) : std::cos(a) * std::cos(b);
            }
            const auto [lo, hi] = drawn.at(k);
            if (lo != hi || std::abs(lo - dot) >= 1e-9)
                return u"k %1: %2 .. %3 vs %4"_s.arg(k).arg(lo).arg(hi).arg(dot);
        }
        return std::nullopt;
    };
    return f;
}
