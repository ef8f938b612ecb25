// --apply against a declared reference. The reference's numbers are transformers'
// modeling_rope_utils.py (_compute_*_parameters: inv_freq and attention_factor, computed by
// RopeFrequencies); the comparison of the frequencies is the table check's (RopeCheck's
// nameDeclaredParameter over RopeInvFreq::expect), not one of its own.
#include "check/rope/ApplyReference.h"

#include "check/DeclaredReading.h"
#include "check/FamilyCheck.h"
#include "check/rope/RopeCheckWords.h"
#include "core/NumberText.h"
#include "core/ParamTable.h"
#include "core/rope/RopeFrequencies.h"

#include <QLocale>

#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::ApplyReference {

namespace {

// "rope_type llama3 (rope_theta 500000, factor 8, ...), attention factor 1", as the check's
// frequencies are said.
QString referenceWords(const Params &reference)
{
    RopeFit::Hypothesis words;
    words.params = reference;
    words.amplitude = RopeFrequencies::attentionFactor(reference);
    return RopeCheckWords::reference(words).section(u", "_s, 2);
}

// The reference's frequency parameters (RoPE's flag rows but the shape's and the attention
// factor's, which the check compares itself) whose values differ from the fit's.
std::vector<const ParamSpec *> differingRows(const Params &reference, const Params &fitted)
{
    static const QStringList compared {u"head-dim"_s, u"partial-rotary-factor"_s, u"rope-layout"_s,
                                       u"mscale"_s,   u"mscale-all-dim"_s,        u"attention-factor"_s};
    std::vector<const ParamSpec *> rows;
    for (const ParamSpec &row : ParamTable::rows()) {
        const bool ofRope = row.family && *row.family == Encoding::Rope && row.group == ParamGroup::Family;
        if (!ofRope || !row.isFlag || !row.value || !row.assign || compared.contains(row.key))
            continue;
        if ((row.idle && row.idle(fitted)) || row.value(fitted) == row.value(reference))
            continue;
        rows.push_back(&row);
    }
    return rows;
}

// The fewest differing parameters (one, else two of at most eight) that, set in the reference as
// the fit has them, explain the rows: named with both values.
bool nameDiffering(ApplyCheck::Result &result, const Params &reference, QStringList &lines, const Explains &explains)
{
    const std::vector<const ParamSpec *> rows = differingRows(reference, *result.params);
    if (rows.empty() || rows.size() > 8 || !explains)
        return false;
    std::vector<std::vector<const ParamSpec *>> tried;
    for (const ParamSpec *row : rows)
        tried.push_back({row});
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = i + 1; j < rows.size(); ++j)
            tried.push_back({rows[i], rows[j]});
    for (const auto &set : tried) {
        Params p = reference;
        for (const ParamSpec *row : set)
            row->assign(p, row->value(*result.params));
        if (!p.isValid() || !explains(p))
            continue;
        QStringList said;
        for (const ParamSpec *row : set) {
            result.mistakes.append(row->key);
            said.append(u"%1 %2 where the reference declared gives %3"_s.arg(
                row->key, TableCheck::valueText(*row, *result.params), TableCheck::valueText(*row, reference)));
        }
        lines.append(u"the frequencies differ from the reference declared: %1; with %2 the reference explains the "
                     "rows"_s.arg(said.join(u"; "_s), set.size() == 1 ? u"that value"_s : u"those values"_s));
        return true;
    }
    return false;
}

} // namespace

QStringList mistakeIds()
{
    return {kAttentionFactor, kAttentionFactorMissing, kFrequencies};
}

void compare(ApplyCheck::Result &result, const Params &reference, bool explained, double within, QStringList &lines,
             const Explains &explains)
{
    if (!result.params)
        return;
    const qsizetype before = result.mistakes.size();
    // A rotary_dim other than the reference's is named by the partial rotary's lines; the
    // frequencies of two widths are not compared pair by pair.
    const bool sameWidth = RopeFrequencies::rotaryDim(reference.rope) == result.rotaryDim;
    const auto &table = FamilyChecks::of(Encoding::Rope).table;
    if (sameWidth && !explained && table && table->nameDeclaredParameter) {
        TableMatch read;
        read.family = Encoding::Rope;
        read.verdict = CheckVerdict::Variant;
        read.params = result.params;
        const auto named = table->nameDeclaredParameter(read, reference);
        if (named && !named->mistakes.isEmpty()) {
            for (const QString &mistake : named->mistakes) {
                if (!result.mistakes.contains(mistake))
                    result.mistakes.append(mistake);
            }
            lines.append(u"the frequencies differ from the reference declared: "_s + named->diagnosis);
        } else if (!nameDiffering(result, reference, lines, explains) && named) {
            // Nothing names the difference: still no reference the rows hold.
            result.mistakes.append(kFrequencies);
            lines.append(u"the frequencies differ from the reference declared, and no parameter of it set as the "
                         "rows have it explains them: "_s
                         + named->diagnosis);
        }
    }
    const double declared = RopeFrequencies::attentionFactor(reference);
    if (std::fabs(result.attentionFactor / declared - 1.0) > within) {
        const bool missing = std::fabs(result.attentionFactor - 1.0) <= within;
        result.mistakes.append(missing ? kAttentionFactorMissing : kAttentionFactor);
        lines.append(u"Y is X turned times %1, where the reference declared multiplies cos and sin by its attention "
                     "factor %2 (modeling_rope_utils.py: attention_factor, the rotary embedding's "
                     "attention_scaling)"_s.arg(NumberText::compact(result.attentionFactor, 6),
                                                NumberText::compact(declared, 6)));
    }
    if (result.mistakes.size() == before)
        result.correctAgainst = u"the reference declared: "_s + referenceWords(reference);
}

} // namespace posenc::ApplyReference
