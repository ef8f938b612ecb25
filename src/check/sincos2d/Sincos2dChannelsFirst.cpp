#include "Sincos2dChannelsFirst.h"

#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dChannelsFirst {

namespace {

struct Form
{
    bool floored = false; // temp_bug_fix=False's div_term
    double largest = 0.0; // the largest cell's distance from the formula
    std::int64_t row = 0, col = 0, channel = 0;
};

// Channel c's value at each coordinate 1 .. n (x for channels 4k, 4k + 1; y for 4k + 2, 4k + 3).
void channelValues(std::int64_t c, std::int64_t channels, bool floored, std::int64_t n, std::vector<double> &out)
{
    const double w = std::exp(double(2 * (c / 4)) * divTermFactor(channels, floored));
    out.resize(std::size_t(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const double angle = double(i + 1) * w;
        out[std::size_t(i)] = (c % 2) == 0 ? std::sin(angle) : std::cos(angle);
    }
}

} // namespace

double divTermFactor(std::int64_t channels, bool floored)
{
    if (floored)
        return std::floor(-std::log(10000.0) / double(channels) / 2.0);
    return -std::log(10000.0) / double(channels / 2);
}

std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows, bool declared)
{
    std::vector<std::int64_t> dims;
    for (const std::int64_t d : shape) {
        if (d != 1 || !dims.empty())
            dims.push_back(d);
    }
    if (dims.size() != 3)
        return std::nullopt;
    const std::int64_t channels = dims[0], height = dims[1], width = dims[2];
    std::int64_t mapRows = 0;
    if (channels < 4 || channels % 4 != 0 || height < 2 || width < 2 || rows.cols() != width
        || __builtin_mul_overflow(channels, height, &mapRows) || rows.rows() != mapRows)
        return std::nullopt;
    // A float32 computation's error: the stored value's rounding and the angle's, x w_k formed in
    // float32 from a float32 w_k (a few units in the last place of the largest angle, x <= max(H, W)).
    const double side = double(std::max(height, width));
    const double tolerance = 2.0 * 0x1p-24 + side * 8.0 * 0x1p-24;
    std::vector<Form> forms {Form {false}, Form {true}};
    std::vector<float> cells(static_cast<std::size_t>(height * width));
    std::vector<double> expected;
    for (std::int64_t c = 0; c < channels; ++c) {
        QString error;
        if (!rows.read(c * height, height, cells.data(), error))
            return std::nullopt;
        const bool alongX = (c % 4) < 2;
        for (Form &f : forms) {
            if (!(f.largest <= tolerance))
                continue;
            channelValues(c, channels, f.floored, alongX ? width : height, expected);
            for (std::int64_t y = 0; y < height; ++y)
                for (std::int64_t x = 0; x < width; ++x) {
                    const double value = cells[static_cast<std::size_t>(y * width + x)];
                    const double off = std::fabs(value - expected[std::size_t(alongX ? x : y)]);
                    if (!(off <= f.largest)) {
                        f.largest = std::isfinite(off) ? off : INFINITY;
                        f.row = y;
                        f.col = x;
                        f.channel = c;
                    }
                }
        }
        // Neither form holds: no need to read further.
        if (std::none_of(forms.begin(), forms.end(), [&](const Form &f) { return f.largest <= tolerance; }))
            return std::nullopt;
    }
    const auto held = std::find_if(forms.begin(), forms.end(), [&](const Form &f) { return f.largest <= tolerance; });
    TableMatch m;
    m.family = Encoding::Sincos2d;
    m.table = u"sincos-2d"_s;
    m.findings = {{u"grid"_s, u"%1x%2"_s.arg(height).arg(width)},
                  {u"halves"_s, u"LoFTR: x, y per frequency"_s},
                  {u"temp_bug_fix"_s, !held->floored}};
    m.positionOffset = 1;
    m.unreferenced = u"LoFTR's [C, H, W] map is compared cell by cell with PositionEncodingSine's formula in float64 "
                     "(the largest cell %1 from it, within float32's %2), not streamed as a table of positions"_s.arg(
                         NumberText::compact(held->largest, 3), NumberText::compact(tolerance, 3));
    const QString module = u"LoFTR's PositionEncodingSine (zju3dv/LoFTR src/loftr/utils/position_encoding.py), "
                           "d_model %1, max_shape (%2, %3)"_s.arg(channels)
                               .arg(height)
                               .arg(width);
    m.referenceText = module + u", temp_bug_fix=True"_s;
    const QString layout = u"a [C, H, W] map of %1 channels over %2 x %3 patches: channels 4k..4k+3 hold sin(x w_k), "
                           "cos(x w_k), sin(y w_k), cos(y w_k), x and y counted from 1 (cumsum of ones)"_s.arg(channels)
                               .arg(height)
                               .arg(width);
    const QString w1Fixed = NumberText::compact(std::exp(2.0 * divTermFactor(channels, false)), 6);
    const QString w1Floored = NumberText::compact(std::exp(2.0 * divTermFactor(channels, true)), 6);
    if (!held->floored) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = declared
            ? u"the declared 2-D sin-cos (base 10000) in LoFTR's [C, H, W] layout: PositionEncodingSine, "
              "temp_bug_fix=True (zju3dv/LoFTR position_encoding.py)"_s
            : u"LoFTR's PositionEncodingSine, temp_bug_fix=True (zju3dv/LoFTR position_encoding.py)"_s;
        m.diagnosis = u"LoFTR's 2-D sine map (PositionEncodingSine, temp_bug_fix=True): %1, w_k = 10000^(-2k / (C/2))"_s
                          .arg(layout);
        return m;
    }
    const QString floored = u"w_k = exp(-2k) (w_1 = %1 where the fixed division gives %2): `-math.log(10000.0) / "
                            "d_model//2` is (-ln(10000) / d_model) // 2 = %3"_s.arg(w1Floored, w1Fixed,
                                                                                  NumberText::exact(
                                                                                      divTermFactor(channels, true)));
    if (!declared) {
        m.verdict = CheckVerdict::Variant;
        m.referenceText = module + u", temp_bug_fix=False"_s;
        m.diagnosis = u"LoFTR's 2-D sine map with temp_bug_fix=False (PositionEncodingSine's form kept for the "
                      "weights trained with it: zju3dv/LoFTR src/loftr/utils/cvpr_ds_config.py and "
                      "configs/loftr/*/buggy_pos_enc/ set it; LoFTR#41): %1, %2; a published form, not the fixed "
                      "one (temp_bug_fix=True, w_k = 10000^(-2k / (C/2))), which a port of weights trained with "
                      "the fix must use"_s.arg(layout, floored);
        m.notes.append(u"declare the fixed form (--expect sincos-2d) to have this map checked against it"_s);
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {kDivTermFloored};
    m.diagnosis = u"LoFTR's 2-D sine map with temp_bug_fix=False where the declared 2-D sin-cos (base 10000) is "
                  "PositionEncodingSine's fixed division, temp_bug_fix=True: %1, %2 (zju3dv/LoFTR#41)"_s.arg(layout,
                                                                                                         floored);
    return m;
}

} // namespace posenc::Sincos2dChannelsFirst
