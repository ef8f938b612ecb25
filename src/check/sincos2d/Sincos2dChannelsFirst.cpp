#include "Sincos2dChannelsFirst.h"

#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dChannelsFirst {

namespace {

// The largest map read whole (its cells held in memory).
constexpr std::int64_t kMostCells = std::int64_t(1) << 24;

struct Form
{
    bool floored = false; // temp_bug_fix=False's w_k = exp(-2k)
    double largest = 0.0; // the largest cell's distance from the formula
    std::int64_t row = 0, col = 0, channel = 0;
};

// w_k of channel group k: the fixed div_term, or the floored one.
double frequency(std::int64_t k, std::int64_t channels, bool floored)
{
    const double factor = floored ? -1.0 : -std::log(10000.0) / double(channels / 2);
    return std::exp(double(2 * k) * factor);
}

// The cell at channel c of the patch at row y, column x: LoFTR's formula.
double cell(std::int64_t c, std::int64_t y, std::int64_t x, std::int64_t channels, bool floored)
{
    const double w = frequency(c / 4, channels, floored);
    const double coordinate = (c % 4) < 2 ? double(x + 1) : double(y + 1);
    const double angle = coordinate * w;
    return (c % 2) == 0 ? std::sin(angle) : std::cos(angle);
}

} // namespace

std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows)
{
    std::vector<std::int64_t> dims;
    for (const std::int64_t d : shape) {
        if (d != 1 || !dims.empty())
            dims.push_back(d);
    }
    if (dims.size() != 3)
        return std::nullopt;
    const std::int64_t channels = dims[0], height = dims[1], width = dims[2];
    if (channels < 4 || channels % 4 != 0 || height < 2 || width < 2 || channels * height * width > kMostCells
        || rows.cols() != width || rows.rows() != channels * height)
        return std::nullopt;
    std::vector<float> cells(static_cast<std::size_t>(channels * height * width));
    QString error;
    if (!rows.read(0, channels * height, cells.data(), error))
        return std::nullopt;
    // A float32 computation's error: the stored value's rounding and the angle's, x w_k formed in
    // float32 from a float32 w_k (a few units in the last place of the largest angle, x <= max(H, W)).
    const double side = double(std::max(height, width));
    const double tolerance = 2.0 * 0x1p-24 + side * 8.0 * 0x1p-24;
    std::vector<Form> forms {Form {false}, Form {true}};
    for (Form &f : forms) {
        for (std::int64_t c = 0; c < channels; ++c)
            for (std::int64_t y = 0; y < height; ++y)
                for (std::int64_t x = 0; x < width; ++x) {
                    const double value = cells[static_cast<std::size_t>((c * height + y) * width + x)];
                    const double off = std::fabs(value - cell(c, y, x, channels, f.floored));
                    if (!(off <= f.largest)) {
                        f.largest = std::isfinite(off) ? off : INFINITY;
                        f.row = y;
                        f.col = x;
                        f.channel = c;
                    }
                }
    }
    const auto held = std::find_if(forms.begin(), forms.end(), [&](const Form &f) { return f.largest <= tolerance; });
    if (held == forms.end())
        return std::nullopt;
    TableMatch m;
    m.family = Encoding::Sincos2d;
    m.table = u"sincos-2d"_s;
    m.findings = {{u"grid"_s, u"%1x%2"_s.arg(height).arg(width)}, {u"halves"_s, u"LoFTR: x, y per frequency"_s}};
    m.positionOffset = 1;
    m.unreferenced = u"LoFTR's [C, H, W] map is compared cell by cell with PositionEncodingSine's formula in float64 "
                     "(the largest cell %1 from it, within float32's %2), not streamed as a table of positions"_s.arg(
                         NumberText::compact(held->largest, 3), NumberText::compact(tolerance, 3));
    m.referenceText = u"LoFTR's PositionEncodingSine (zju3dv/LoFTR src/loftr/utils/position_encoding.py), d_model %1, "
                      "max_shape (%2, %3), temp_bug_fix=True"_s.arg(channels)
                          .arg(height)
                          .arg(width);
    const QString layout = u"a [C, H, W] map of %1 channels over %2 x %3 patches: channels 4k..4k+3 hold sin(x w_k), "
                           "cos(x w_k), sin(y w_k), cos(y w_k), x and y counted from 1 (cumsum of ones)"_s.arg(channels)
                               .arg(height)
                               .arg(width);
    if (!held->floored) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = u"LoFTR's PositionEncodingSine, temp_bug_fix=True (zju3dv/LoFTR position_encoding.py)"_s;
        m.diagnosis = u"LoFTR's 2-D sine map (PositionEncodingSine): %1, w_k = 10000^(-2k / (C/2))"_s.arg(layout);
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {kDivTermFloored};
    m.diagnosis = u"LoFTR's 2-D sine map with its first release's div_term: %1, w_k = exp(-2k) where "
                  "PositionEncodingSine's fix gives 10000^(-2k / (C/2)) (w_1 = %2 instead of %3): "
                  "`-math.log(10000.0) / d_model//2` floors to -1 (zju3dv/LoFTR#41); temp_bug_fix=False keeps it "
                  "for the weights trained with it, whose port must reproduce it"_s.arg(layout)
                      .arg(NumberText::compact(frequency(1, channels, true), 6),
                           NumberText::compact(frequency(1, channels, false), 6));
    return m;
}

} // namespace posenc::Sincos2dChannelsFirst
