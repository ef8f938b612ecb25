#include "TableMatch.h"

#include "core/rope/RopeTypes.h"

using namespace Qt::StringLiterals;

namespace posenc::CheckWords {

QString verdict(CheckVerdict verdict)
{
    switch (verdict) {
    case CheckVerdict::Correct:
        return u"correct"_s;
    case CheckVerdict::Mistake:
        return u"mistake"_s;
    case CheckVerdict::Unknown:
        return u"unknown"_s;
    }
    return {};
}

QString encoding(TableEncoding encoding)
{
    switch (encoding) {
    case TableEncoding::Sinusoidal:
        return u"sinusoidal"_s;
    case TableEncoding::RopeCos:
        return u"rope-cos"_s;
    case TableEncoding::RopeSin:
        return u"rope-sin"_s;
    case TableEncoding::Learned:
        return u"learned"_s;
    case TableEncoding::Unknown:
        return {};
    }
    return {};
}

QString frequencies(SinusoidFrequencies frequencies)
{
    return frequencies == SinusoidFrequencies::Paper ? u"paper"_s : u"half-dim-minus-one"_s;
}

QString precision(TablePrecision precision)
{
    switch (precision) {
    case TablePrecision::Exact:
        return u"exact"_s;
    case TablePrecision::Float16:
        return u"float16"_s;
    case TablePrecision::BFloat16:
        return u"bfloat16"_s;
    case TablePrecision::Float32Angles:
        return u"float32-angles"_s;
    }
    return {};
}

QString mistake(TableMistake mistake)
{
    switch (mistake) {
    case TableMistake::ExponentColumnIndex:
        return u"exponent-column-index"_s;
    case TableMistake::ExponentDoubled:
        return u"exponent-doubled"_s;
    case TableMistake::SinCosSwapped:
        return u"sin-cos-swapped"_s;
    case TableMistake::PositionDivided:
        return u"position-divided"_s;
    case TableMistake::PositionOffset:
        return u"position-offset"_s;
    case TableMistake::SameRow:
        return u"same-row"_s;
    case TableMistake::HalfPrecisionAngles:
        return u"half-precision-angles"_s;
    case TableMistake::RopeLayout:
        return u"rope-layout"_s;
    case TableMistake::AttentionFactorMissing:
        return u"attention-factor-missing"_s;
    }
    return {};
}

QString layout(Layout layout)
{
    return layout == Layout::Interleaved ? u"interleaved"_s : u"split"_s;
}

QString ropeLayout(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s;
}

QString ropeType(RopeType type)
{
    return RopeTypes::word(type);
}

} // namespace posenc::CheckWords
