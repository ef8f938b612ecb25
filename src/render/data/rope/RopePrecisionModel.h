#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

#include <optional>

namespace posenc {

// One float format's gaps between representable neighbours, as a staircase over the positions.
struct RopePrecisionFormat
{
    QString name; // "float32", "bf16", "fp16"
    int mantissaBits = 0; // explicit: 23, 7, 10
    // At each power of two from 1 up to the last position, then at the last position drawn: the
    // gap between neighbouring values there, constant up to the next point.
    QList<double> position, gap;
    // The first position whose gap exceeds 1: 2^(mantissaBits + 1). From there on, neighbouring
    // integer positions round to the same value (257 to 256 in bf16).
    std::int64_t firstMerge = 0;
    // The first position that rounds to infinity (fp16: 65,520), if the format has one in range.
    std::optional<std::int64_t> overflow;
};

// The rope-precision figure's data: which positions float32, bf16 and fp16 can tell apart, for
// p in [0, max_len). Closed forms: nothing is sampled.
struct RopePrecisionData : FigureData
{
    QList<RopePrecisionFormat> formats; // float32, bf16, fp16
    std::int64_t last = 0; // max_len - 1
    double bf16StepAtLast = 0.0; // RopeFrequencies::describe: the gaps at the last position
    std::optional<double> fp16StepAtLast; // unset where fp16 overflows there
};

// "Positions in low precision": for p in [0, max_len), the gap between representable neighbours
// of p in float32, bf16 and fp16 (log axes) against the line at 1: past it neighbouring positions
// merge, and the angles p theta_i of a model that holds positions in that format with them
// (bf16 from 256, fp16 from 2,048, float32 from 2^24; fp16 overflows at 65,520).
class RopePrecisionModel final : public FigureModel
{
public:
    // The first position that rounds to infinity in fp16: halfway from its largest, 65,504, to 2^16.
    static constexpr std::int64_t kFp16Overflow = 65520;

    static RopePrecisionData compute(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Rope}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    // The positions alone: max_len (and the family, whose figure it is). The rotation's tables it
    // stands beside read every RoPE parameter, none of which moves a position's float format.
    QStringList reads(const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
