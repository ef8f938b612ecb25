// A sinusoidal hypothesis as the reference a table is compared with (SinusoidalFit.h): its columns,
// frequencies and amplitude, the amplitude known to the rounding of the format it was applied in.
#include "SinusoidalFit.h"

#include "core/sinusoidal/Frequencies.h"

#include <cmath>

namespace posenc::SinusoidalFit {

double amplitudeSlack(std::int64_t dModel, double amplitude, ValueFormat format)
{
    double slack = unitRowsSlack(dModel, amplitude);
    // A power of two (1, 2, 0.125) is held exactly by a half type and moves only the exponent,
    // which commutes with rounding: fmt(fmt(x) a) = fmt(x a). Such a factor leaves nothing to allow,
    // but rows over their norm (1/sqrt(d/2), a power of two at d 8, 32, 128) divide by a norm the
    // format rounds, whatever the amplitude.
    int exponent = 0;
    const bool exact = std::frexp(std::fabs(amplitude), &exponent) == 0.5 && amplitude != unitRowsAmplitude(dModel);
    if (format != ValueFormat::Float32 && !exact)
        slack += 2.0 * halfUnit(format);
    return slack;
}

std::vector<ReferenceColumn> columns(std::int64_t dModel, std::int64_t pairs, Layout layout, bool swapped)
{
    std::vector<ReferenceColumn> out(static_cast<std::size_t>(dModel));
    for (std::int64_t j = 0; j < dModel; ++j) {
        ReferenceColumn column;
        if (pairs == Frequencies::pairCount(dModel)) {
            const ColumnRole role = Frequencies::role(j, dModel, layout);
            column = {role.pair, role.isCos};
        } else if (j < 2 * pairs) {
            // fairseq's [sin | cos | 0]: half_dim = d / 2 pairs, a zero column when d is odd.
            column = layout == Layout::Interleaved ? ReferenceColumn {j / 2, j % 2 == 1}
                                                   : ReferenceColumn {j % pairs, j >= pairs};
        }
        if (swapped && column.pair >= 0)
            column.isCos = !column.isCos;
        out[static_cast<std::size_t>(j)] = column;
    }
    return out;
}

PairReferenceSpec reference(const Hypothesis &h, std::int64_t dModel, const RowFraming &framing, ValueFormat format)
{
    PairReferenceSpec spec;
    spec.firstRow = framing.firstRow;
    spec.paddingRows = framing.paddingRows;
    spec.positionOffset = h.firstPosition;
    spec.positionRounding = h.rounding;
    spec.schedule.amplitude = h.amplitude;
    spec.amplitudeSlack = amplitudeSlack(dModel, h.amplitude, format);
    const double logBase = std::log(h.base);
    const double d = double(dModel);
    if (h.variant == Variant::ColumnIndex) {
        // Each column its own frequency b^(-j/d), a sine on even columns and a cosine on odd ones.
        spec.schedule.w.resize(std::size_t(dModel));
        spec.columns.resize(std::size_t(dModel));
        for (std::int64_t j = 0; j < dModel; ++j) {
            spec.schedule.w[std::size_t(j)] = std::exp(-double(j) * logBase / d);
            spec.columns[std::size_t(j)] = {j, (j % 2 == 1) != h.swapped};
        }
        return spec;
    }
    const std::int64_t pairs = pairsOf(dModel, h.fairseqPairs);
    spec.schedule.w.resize(std::size_t(pairs));
    const double halfMinusOne = double(dModel / 2 - 1);
    for (std::int64_t i = 0; i < pairs; ++i) {
        double w = 0.0;
        switch (h.variant) {
        case Variant::Paper:
            w = std::exp(-2.0 * double(i) * logBase / d);
            break;
        case Variant::HalfDimMinusOne:
            w = std::exp(-double(i) * logBase / halfMinusOne);
            break;
        case Variant::Divided:
            w = std::exp(2.0 * double(i) * logBase / d);
            break;
        case Variant::Constant:
            w = 1.0;
            break;
        case Variant::ColumnIndex:
            break;
        }
        spec.schedule.w[std::size_t(i)] = h.frequencyScale * w;
    }
    spec.columns = columns(dModel, pairs, h.layout, h.swapped);
    if (h.replaced != Replaced::None) {
        for (ReferenceColumn &c : spec.columns) {
            if (c.pair >= 0)
                c.isCos = h.replaced == Replaced::Sines;
        }
    }
    // The paper's pairs unswapped are the kernel's own columns in the layout.
    if (!h.fairseqPairs && !h.swapped && h.replaced == Replaced::None)
        spec.kernelLayout = h.layout;
    return spec;
}

} // namespace posenc::SinusoidalFit
