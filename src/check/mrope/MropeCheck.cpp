// M-RoPE's facet of posenc check (FamilyCheck.h): its cos and sin tables, its rotation of a query
// or key, its config reader (Qwen-VL's) and its layers, which turn at RoPE's frequencies.
#include "check/FamilyCheck.h"
#include "check/GuessedReading.h"

#include "check/mrope/MropeApplyCheck.h"
#include "check/mrope/MropeApplyReport.h"
#include "check/mrope/MropeConfig.h"
#include "check/mrope/MropeMistakes.h"
#include "check/mrope/MropeTableCheck.h"
#include "check/rope/RopeLayers.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A layer of a Qwen-VL config turns its pairs at RoPE's frequencies; only which id (t, h or w) turns
// each pair differs. The model figures and the config check read it through RoPE's rotary numbers,
// its words naming the sections: "M-RoPE 16,24,24 chunked · RoPE θ 1,000,000, ...".
RotaryLayers mropeRotary()
{
    const RotaryLayers rope = RopeLayers::rotary();
    const auto asRope = [](const ConfigLayer &layer) {
        ConfigLayer under = layer;
        under.params = RopeFrequencies::underRope(layer.params);
        return under;
    };
    const auto sections = [](const Params &p) {
        QStringList parts;
        for (const std::int64_t s : p.mrope.section)
            parts.append(QString::number(s));
        return u"M-RoPE %1 %2"_s.arg(parts.join(u","_s), p.mrope.interleaved ? u"interleaved"_s : u"chunked"_s);
    };
    RotaryLayers layers;
    layers.numbers = [rope](const Params &p) { return rope.numbers(RopeFrequencies::underRope(p)); };
    layers.words = [rope, asRope, sections](const ConfigLayer &l) {
        return u"%1 · %2"_s.arg(sections(l.params), rope.words(asRope(l)));
    };
    layers.terse = [rope, asRope](const ConfigLayer &l) { return u"M-"_s + rope.terse(asRope(l)); };
    // Coloured as RoPE's layers of the same theta: a model's layers are one or the other.
    layers.colourKey = [rope](const Params &p) { return rope.colourKey(RopeFrequencies::underRope(p)); };
    layers.theta = [rope](const Params &p) { return rope.theta(RopeFrequencies::underRope(p)); };
    return layers;
}

// Its apply check: each row's (t, h, w) ids read from the pairs of their axes, compared with
// get_rope_index's where the prompt is declared.
ApplyHypothesis mropeApply()
{
    QStringList mistakes;
    for (const MropeMistakes::Mistake &m : MropeMistakes::all()) {
        // The config's finding and the table check's own are no rotation's.
        if (m.id != MropeMistakes::kSectionSum && m.id != MropeMistakes::kColumnsAxis
            && m.id != MropeMistakes::kOtherSection)
            mistakes.append(m.id);
    }
    ApplyHypothesis apply;
    apply.help = u"With --encoding mrope (its flags, or --config of a Qwen-VL model) each row's (t, h, w) ids and the "
                 "section split; with --prompt compared with get_rope_index's (%1)"_s.arg(mistakes.join(u", "_s));
    apply.rowBytes = 48.0; // three ids, read and declared
    apply.widthKey = u"head-dim"_s;
    apply.check = [](const RowMatrixXf &x, const RowMatrixXf &y,
                     const ApplyDeclaration &declared) -> std::variant<ApplyResult, QString> {
        auto checked
            = MropeApplyCheck::check(x, y, {declared.params, declared.declares(u"prompt"_s), declared.threads});
        if (const auto *refused = std::get_if<QString>(&checked))
            return *refused;
        MropeApplyCheck::Result r = std::get<MropeApplyCheck::Result>(std::move(checked));
        GuessedReading::cap({r.verdict, r.mistakes, r.diagnosis, r.notes}, declared.configSources, declared.configPath);
        return ApplyReport::result(r, MropeApplyReport::family(r));
    };
    return apply;
}

} // namespace

FamilyCheck makeMropeCheck()
{
    FamilyCheck check;
    check.table = MropeTableCheck::hypothesis();
    check.apply = mropeApply();
    check.readConfig = MropeConfig::read;
    check.configFindings = MropeConfig::findings();
    check.rotary = mropeRotary();
    // A head whose every column turns is as wide as its table, as RoPE's.
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        if (params.rope.partialRotaryFactor == 1.0 && RopeFrequencies::rotaryDim(params.rope) != cols)
            RopeFrequencies::setHeadDim(params, std::clamp<std::int64_t>(cols, 2, RopeParams::kMaxHeadDim));
    };
    // What a config cannot say: the prompt, the transformers whose get_rope_index gave its ids, and
    // the batch row's left padding (--batch left:N) before them.
    check.inputKeys = {u"prompt"_s, u"second-per-grid"_s, u"timestamp-tokens"_s, u"mrope-era"_s, u"batch"_s};
    return check;
}

} // namespace posenc
