#include "SinusoidalTableCheck.h"

#include "check/CellTolerance.h"
#include "check/DeclaredShape.h"
#include "check/DeclaredWords.h"
#include "check/FitNumbers.h"
#include "check/PairReference.h"
#include "check/rope/ApplyCheck.h"
#include "check/rope/RopeHalfAngles.h"
#include "check/rope/RopeRowPositions.h"
#include "check/sinusoidal/SinusoidalCheckWords.h"
#include "check/sinusoidal/SinusoidalDeclared.h"
#include "check/sinusoidal/SinusoidalRows.h"
#include "check/sinusoidal/SinusoidalFit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalTableCheck {

namespace {

using SinusoidalFit::Hypothesis;
using SinusoidalFit::Variant;

const QString kTable = u"sinusoidal"_s;

SinusoidalFit::FitInput inputOf(const TableEvidence &e, const RowFraming &framing)
{
    return {e.sample, framing, e.format, e.table.storedType(), e.table.textRounding(), e.declared.firstPosition};
}

// The sinusoid's parameters whose table is the reference from its first row: half_dim - 1's
// frequencies are diffusers' downscale_freq_shift 1, the cosines first its flip_sin_to_cos.
std::optional<Params> paramsOf(const Hypothesis &h, std::int64_t dModel, std::int64_t rows, bool float32Angles)
{
    if (h.swapped && !SinusoidalFit::flipSinToCos(h))
        return std::nullopt; // posenc flips only the split layout
    if (h.swapped && dModel % 2 == 1)
        return std::nullopt; // the fit's odd swapped split is not posenc's [cos | sin]
    Params p;
    p.encoding = Encoding::Sinusoidal;
    p.dModel = std::min(dModel, Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(rows, 1, Params::kMaxLen);
    p.sinusoidal.layout = h.layout;
    p.sinusoidal.angles = float32Angles ? Angles::Float32 : Angles::Exact;
    p.sinusoidal.flipSinToCos = h.swapped;
    p.sinusoidal.base = h.base;
    if (h.variant == Variant::HalfDimMinusOne) {
        if (dModel % 2 == 0) {
            p.sinusoidal.freqShift = 1.0;
        } else { // h - 1 of h = floor(d / 2) pairs: the base of d/2 - s = h - 1
            const double half = double(dModel) / 2.0;
            p.sinusoidal.freqShift = half - double(dModel / 2 - 1);
        }
    }
    return p.isValid() ? std::optional<Params>(p) : std::nullopt;
}

// Whether the one mistake found is a base that is what a mistake makes of 10000 (100: the exponent
// halved; 10^8: doubled; e, e^(1/2): the logarithm left out). Such a base is a base in its own right
// too (posenc table pe --base 100 writes it), and no table tells the two readings apart: the mistake
// is named only against a declared reference of base 10000 (--expect sinusoidal, whose difference
// from the table SinusoidalDeclared names); undeclared, the table is the variant at its base, and a
// note gives the other reading.
bool baseAlone(const Hypothesis &h, const QStringList &mistakes)
{
    const QString fromBase = SinusoidalFit::baseMistake(h.base);
    return !fromBase.isEmpty() && mistakes == QStringList {fromBase};
}

// Whether the amplitude found is the declared c: equal within the rounding of c to the values'
// format (a scale held as a float32 parameter, 0.0441941738 for 512^-0.5), and the sample as
// close to c * PE as to the fitted amplitude's.
bool atAmplitude(const TableEvidence &e, const Hypothesis &h, double c, const RowFraming &framing)
{
    if (h.amplitude == c)
        return true;
    if (!(std::fabs(h.amplitude / c - 1.0) <= halfUnit(e.format)))
        return false;
    const SinusoidalFit::FitInput input = inputOf(e, framing);
    const auto bad = [&](double amplitude) {
        Hypothesis at = h;
        at.amplitude = amplitude;
        return SinusoidalFit::evaluate(input, at, std::numeric_limits<std::int64_t>::max()).bad();
    };
    return bad(c) <= bad(h.amplitude);
}

// The match of what was found, against the correct table it departs from (its mistakes undone,
// a declared layout taken). A uniform amplitude c alone is x-transformers' ScaledSinusoidalEmbedding
// (the sinusoid times a learnable scale, dim^-0.5 at init): a variant undeclared; against a declared
// amplitude (--pe-scale; 1 under --expect, `declaredReading`) the same c is correct, another the
// mistake scaled.
TableMatch matchOf(const TableEvidence &e, const Hypothesis &h, bool float32Angles, const RowFraming &framing,
                   bool declaredReading = false)
{
    const std::int64_t d = e.cols();
    TableMatch m;
    m.table = kTable;
    m.findings = {{u"layout"_s, SinusoidalCheckWords::layout(h.layout)},
                  {u"frequencies"_s, SinusoidalCheckWords::frequencies(h.variant)},
                  {u"base"_s, h.base},
                  {u"scale"_s, h.amplitude}};
    m.factor = h.amplitude;
    m.positionOffset = h.firstPosition - framing.firstRow;
    // fairseq reads positions from padding_idx + 1: its zero row's next.
    m.firstPositionRow = h.variant == Variant::HalfDimMinusOne && !framing.paddingRows.empty()
        ? framing.paddingRows.back() + 1
        : framing.firstRow;
    m.precision = tablePrecision(e.format, float32Angles);
    const std::int64_t start = framing.firstRow + e.declared.firstPosition;
    m.mistakes = SinusoidalFit::mistakesOf(h, start);
    Hypothesis correct = SinusoidalFit::corrected(h, start);
    const bool ownBase = baseAlone(h, m.mistakes);
    if (ownBase) {
        m.mistakes.clear();
        correct.base = h.base;
    }
    const std::optional<double> declaredAmplitude
        = declaredReading ? std::optional<double>(e.declared.amplitude.value_or(1.0)) : e.declared.amplitude;
    bool amplitudeUndeclared = false;
    bool amplitudeAsDeclared = false;
    if (m.mistakes.contains(CheckMistakes::kScaled)) {
        if (declaredAmplitude && atAmplitude(e, h, *declaredAmplitude, framing)) {
            m.mistakes.removeAll(CheckMistakes::kScaled);
            amplitudeAsDeclared = true;
        } else if (!declaredAmplitude && m.mistakes.size() == 1) {
            m.mistakes.clear();
            amplitudeUndeclared = true;
        }
        if (amplitudeAsDeclared || amplitudeUndeclared)
            correct.amplitude = h.amplitude;
    }
    const bool layoutDeclared = e.declared.declares(u"layout"_s) && e.declared.params.sinusoidal.layout != h.layout;
    if (layoutDeclared)
        correct.layout = e.declared.params.sinusoidal.layout;
    const PairReferenceSpec spec = SinusoidalFit::reference(correct, d, framing, e.format);
    m.reference = std::make_shared<const PairReference>(spec);
    m.tolerance = cellTolerance(e.format, float32Angles, e.table.storedType(), e.table.textRounding(), spec);
    m.params = paramsOf(correct, d, e.rows(), float32Angles);
    m.referenceText = SinusoidalCheckWords::reference(correct, framing);
    m.diagnosis = SinusoidalCheckWords::diagnosis(h, correct, d, framing, m.mistakes, layoutDeclared);
    if (declaredAmplitude && m.mistakes.contains(CheckMistakes::kScaled))
        m.diagnosis.replace(SinusoidalCheckWords::diagnosis(h, correct, d, framing, {CheckMistakes::kScaled}, false),
                            SinusoidalCheckWords::amplitudeMistake(h.amplitude, *declaredAmplitude, d));
    m.notes = SinusoidalCheckWords::notes(h, framing, *m.precision);
    Hypothesis unit = correct; // the form the amplitude multiplies
    unit.amplitude = 1.0;
    const QString form = SinusoidalCheckWords::publishedForm(unit, framing, e.declared.firstPosition);
    if (!m.mistakes.empty() || layoutDeclared) {
        m.verdict = CheckVerdict::Mistake;
    } else if (!form.isEmpty() && !amplitudeUndeclared) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = amplitudeAsDeclared ? SinusoidalCheckWords::amplitudeDeclared(h.amplitude, d, form) : form;
    } else {
        m.verdict = CheckVerdict::Variant;
        m.diagnosis = form.isEmpty() ? SinusoidalCheckWords::variant(unit, framing) : form;
        if (amplitudeUndeclared)
            m.diagnosis = SinusoidalCheckWords::amplitudeVariant(h, d, m.diagnosis);
        if (ownBase)
            m.notes.append(SinusoidalCheckWords::baseReading(h.base));
    }
    return m;
}

TableCandidate candidateOf(const TableEvidence &e, const SinusoidalFit::Fit &fit, const RowFraming &framing)
{
    TableCandidate c;
    c.compared = fit.score.compared;
    c.bad = fit.bad();
    c.claims = explains(c.compared, c.bad);
    if (c.claims) {
        c.match = matchOf(e, fit.hypothesis, fit.float32Angles, framing);
    } else {
        c.nearest = SinusoidalCheckWords::nearest(fit.hypothesis, fit.score);
        c.residual = fit.score.relativeResidual();
        if (mostlyEquals(c.compared, c.bad))
            c.partial = matchOf(e, fit.hypothesis, fit.float32Angles, framing);
    }
    return c;
}

// Every position holds the same row: the row of position 0 in a layout names the sinusoid it was
// cut from; base 10000 assumed, as that row does not show the base.
std::optional<TableCandidate> sameRowCandidate(const TableEvidence &e)
{
    const std::int64_t d = e.cols();
    const auto row = e.sample.values.row(e.framing.firstRow);
    for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
        Hypothesis h;
        h.layout = layout;
        h.firstPosition = e.framing.firstRow;
        RowMatrixXf first(1, d);
        PairReference(SinusoidalFit::reference(h, d, RowFraming {})).fill({0, 1, 0, d}, first);
        if ((first.row(0) - row).cwiseAbs().maxCoeff() > 1e-6f)
            continue;
        TableCandidate c;
        c.claims = true;
        c.compared = 1;
        c.match = matchOf(e, h, false, e.framing);
        c.match.mistakes = {CheckMistakes::kSameRow};
        c.match.verdict = CheckVerdict::Mistake;
        c.match.referenceText += u" (base 10000 assumed)"_s;
        c.match.diagnosis = SinusoidalCheckWords::sameRow();
        c.match.notes.clear();
        return c;
    }
    return std::nullopt;
}

// The bases a table of two rows shows: row 1 holds each pair's sine and cosine of w_i, whose
// angle is w_i itself (w_i <= 1 < pi), and ln w_i = -(2 ln b / d) i.
std::vector<double> basesOfRowOne(const TableSample &sample, Layout layout)
{
    const std::int64_t d = sample.cols();
    const std::int64_t pairs = d / 2;
    std::vector<double> ks;
    for (std::int64_t i = 1; i < pairs; ++i) {
        const std::int64_t s = layout == Layout::Interleaved ? 2 * i : i;
        const std::int64_t c = layout == Layout::Interleaved ? 2 * i + 1 : (d + 1) / 2 + i;
        const double w = std::atan2(double(sample.values(1, s)), double(sample.values(1, c)));
        if (w > 0.0)
            ks.push_back(-std::log(w) / double(i));
    }
    std::vector<double> bases {10000.0};
    if (ks.empty())
        return bases;
    for (const double b : FitNumbers::roundings(std::exp(FitNumbers::median(ks) * double(d) / 2.0), 15)) {
        if (b > 1.0 && b < 1e30 && b != bases.front())
            bases.push_back(b);
    }
    return bases;
}

// A table the fit cannot take: one column (a sine turning at w_0 = 1 whatever the base), or one
// or two rows. Each layout at base 10000 from position 0, and the base row 1 shows.
std::optional<TableCandidate> cornerCandidate(const TableEvidence &e)
{
    const std::int64_t d = e.cols();
    const RowFraming framing; // a table of one column holds sin 0 = 0 in row 0: position 0, not padding
    const SinusoidalFit::FitInput input = inputOf(e, framing);
    std::optional<SinusoidalFit::Fit> best;
    for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
        std::vector<double> bases {10000.0};
        if (e.sample.size() == 2 && d >= 4)
            bases = basesOfRowOne(e.sample, layout);
        for (const double base : bases) {
            for (const bool swapped : {false, true}) {
                Hypothesis h;
                h.layout = layout;
                h.base = base;
                h.swapped = swapped;
                const SinusoidalFit::Fit f
                    = SinusoidalFit::evaluate(input, h, std::numeric_limits<std::int64_t>::max());
                if (!best || f.bad() < best->bad())
                    best = f;
            }
        }
    }
    TableCandidate c = candidateOf(e, *best, framing);
    if (c.claims && (d <= 2 || e.sample.size() == 1))
        c.match.notes.append(SinusoidalCheckWords::baseNotShown(d, e.sample.size()));
    return c;
}

// A table whose sample holds rows of zeros past its leading ones (a buffer filled only in part, or
// rows a mask or a cache overwrote) read around them: no sinusoid's row is all zeros (each pair
// holds a sine and a cosine of one angle), yet such rows pull the fit off every frequency (8 zero
// rows of 128 read as a learned table). The sinusoid fitted to the other rows, scored on them all:
// the family's claim where it explains the sample, else, where it equals most cells, the reading
// TableCheck reads the rest against (ChangedRegion); either way the stream then says the zero rows
// (TableCheck::streamDeclared's nameZeroRows). Made only where the fit of every row neither claims
// the table nor equals most of it.
std::optional<TableCandidate> aroundZeroRows(const TableEvidence &e)
{
    RowFraming around = e.framing;
    for (std::int64_t i = 0; i < e.sample.size(); ++i) {
        const std::int64_t row = e.sample.rows[std::size_t(i)];
        if (e.framing.compared(row) && e.sample.values.row(i).cwiseAbs().maxCoeff() == 0.0f)
            around.paddingRows.push_back(row);
    }
    if (around.paddingRows.size() == e.framing.paddingRows.size())
        return std::nullopt;
    std::sort(around.paddingRows.begin(), around.paddingRows.end());
    const auto found = SinusoidalFit::fit(inputOf(e, around));
    if (!found || !explains(found->score.compared, found->bad()))
        return std::nullopt;
    const SinusoidalFit::Fit all
        = SinusoidalFit::evaluate(inputOf(e, e.framing), found->hypothesis, std::numeric_limits<std::int64_t>::max());
    TableCandidate c;
    c.compared = all.score.compared;
    c.bad = all.bad();
    c.claims = explains(c.compared, c.bad);
    if (c.claims)
        c.match = matchOf(e, all.hypothesis, all.float32Angles, e.framing);
    else if (mostlyEquals(c.compared, c.bad))
        c.partial = matchOf(e, all.hypothesis, all.float32Angles, e.framing);
    else
        return std::nullopt;
    return c;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.infinite)
        return std::nullopt;
    if (e.sameRow)
        return sameRowCandidate(e);
    if (e.cols() == 1 || e.sample.size() < 3)
        return cornerCandidate(e);
    const auto found = SinusoidalFit::fit(inputOf(e, e.framing));
    if (!found
        || (!explains(found->score.compared, found->bad()) && !mostlyEquals(found->score.compared, found->bad())))
        if (auto around = aroundZeroRows(e))
            return around;
    if (!found)
        return std::nullopt;
    TableCandidate c = candidateOf(e, *found, e.framing);
    if (c.claims && e.cols() == 2)
        c.match.notes.append(SinusoidalCheckWords::baseNotShown(2, e.rows()));
    return c;
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table);

// A declared d_model the table's width is not (DeclaredShape): the declared sinusoid at the table's
// own width, every other parameter the declared one, where it explains the sample or the declared
// reading names what else differs (a timestep embedding built at another freq_dim); else nothing,
// and the shapes are refused.
std::optional<TableMatch> atOwnWidth(const TableEvidence &e, const Params &params, const QString &table)
{
    Params own = params;
    own.dModel = e.cols();
    if (e.cols() < 2 || !own.isValid())
        return std::nullopt;
    Hypothesis h = SinusoidalDeclared::hypothesis(own, e.cols());
    h.firstPosition = e.declared.firstPosition;
    h.amplitude = e.declared.amplitude.value_or(1.0);
    const RowFraming framing;
    const SinusoidalFit::Fit scored
        = SinusoidalFit::evaluate(inputOf(e, framing), h, std::numeric_limits<std::int64_t>::max());
    auto read = expect(e, own, table);
    auto *m = std::get_if<TableMatch>(&read);
    if (!m || (!explains(scored.score.compared, scored.bad()) && m->mistakes.isEmpty()))
        return std::nullopt;
    const QString said = u"d-model: the table is the sinusoid of d_model %1 (%1 columns), %2 is d_model %3 (%3 "
                         "columns)"_s.arg(e.cols())
                             .arg(DeclaredWords::referenceOf())
                             .arg(params.dModel);
    return DeclaredShape::named(std::move(*m), {DeclaredShape::kDModel}, said, u"d_model %1"_s.arg(e.cols()));
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table)
{
    if (table != kTable)
        return u"the sinusoidal family's table is 'sinusoidal', not '%1'"_s.arg(table);
    if (params.dModel != e.cols()) {
        if (auto named = atOwnWidth(e, params, table))
            return std::move(*named);
        return u"d_model %1 gives a table of %1 columns; this one has %2"_s.arg(params.dModel).arg(e.cols());
    }
    Hypothesis h = SinusoidalDeclared::hypothesis(params, e.cols());
    h.firstPosition = e.declared.firstPosition; // row 0's position, where --positions declares it
    h.amplitude = e.declared.amplitude.value_or(1.0); // --pe-scale's c: the values c * PE
    const RowFraming framing;
    // Float32 code (torch, diffusers) forms the angles in float32: where the sample is beyond the
    // exact angles' tolerance and within theirs, the table is compared with theirs.
    const SinusoidalFit::Fit declared
        = SinusoidalFit::evaluate(inputOf(e, framing), h, std::numeric_limits<std::int64_t>::max());
    const bool float32Declared = params.sinusoidal.angles == Angles::Float32;
    TableMatch m = matchOf(e, h, declared.float32Angles || float32Declared, framing, true);
    if (const auto named = SinusoidalDeclared::differences(inputOf(e, framing), h, declared, params))
        SinusoidalDeclared::name(m, *named);
    // The reference is the exact angles'. Declared float32 angles (--angles float32) widen the
    // tolerance to float32 angles' around them, which holds every float32 form (PyTorch's
    // PositionalEncoding: exp(arange(0, d, 2) * (-ln(10000) / d)); numpy's float32 pow; diffusers'
    // get_timestep_embedding: exp(-ln(max_period) * arange(0, half) / half) times the timesteps) and
    // posenc's own, and keep it: the values' probe of exact angles narrows no declaration.
    PairReferenceSpec spec = SinusoidalFit::reference(h, e.cols(), framing, e.format);
    SinusoidalDeclared::orderColumns(spec, params);
    spec.angles = Angles::Exact;
    m.reference = std::make_shared<const PairReference>(spec);
    if (float32Declared) {
        m.tolerance = cellTolerance(e.format, true, e.table.storedType(), e.table.textRounding(), spec);
        m.tolerance.anglesDeclared = true;
        m.precision = TablePrecision::Float32Angles;
    }
    m.params = params;
    m.params->maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    return m;
}

QList<PublishedForm> publishedForms(std::int64_t cols)
{
    Params p;
    p.encoding = Encoding::Sinusoidal;
    p.dModel = cols;
    QList<PublishedForm> forms;
    forms.append({u"the paper's sinusoid"_s,
                  u"Vaswani et al. 2017, section 3.5; PyTorch's and the Annotated "
                  "Transformer's PositionalEncoding"_s,
                  kTable, p});
    p.sinusoidal.layout = Layout::Split;
    forms.append({u"the split sinusoid"_s, u"TensorFlow's Transformer tutorial, positional_encoding"_s, kTable, p});
    if (cols >= 6 && cols % 2 == 0) {
        // b^(-i/(h-1)) is the paper's formula with base b^(d/(d-2)).
        p.sinusoidal.base = std::exp(std::log(10000.0) * double(cols) / double(cols - 2));
        forms.append({u"the half_dim - 1 sinusoid"_s,
                      u"fairseq's SinusoidalPositionalEmbedding, tensor2tensor's get_timing_signal_1d, Whisper's "
                      "sinusoids"_s,
                      kTable, p});
    }
    return forms;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kTable};
    h.findingKeys = {u"layout"_s, u"frequencies"_s, u"base"_s, u"scale"_s};
    h.declares = {u"layout"_s};
    h.help = u"interleaved or split; the paper's frequencies b^(-2i/d) or fairseq's, tensor2tensor's and Whisper's "
             "b^(-i/(h-1)); correct at base 10000 (the published forms), a variant at any other base; a scale c; "
             "an offset of the positions; values exact, rounded to float16 or bfloat16, or from float32 angles"_s;
    h.mistakes = {u"exponent-column-index"_s,
                  DeclaredShape::kDModel,
                  SinusoidalDeclared::kLayout,
                  SinusoidalDeclared::kFlip,
                  SinusoidalDeclared::kShift,
                  SinusoidalDeclared::kBase,
                  SinusoidalDeclared::kFrequencies,
                  u"exponent-doubled"_s,
                  u"exponent-halved"_s,
                  u"log-base-missing"_s,
                  u"integer-division"_s,
                  u"sin-cos-swapped"_s,
                  u"cos-replaced"_s,
                  u"sin-replaced"_s,
                  SinusoidalRows::kSinusoidRows,
                  u"position-divided"_s,
                  CheckMistakes::kScaled,
                  CheckMistakes::kPositionOffset,
                  RopeRowPositions::kPositionsScaled,
                  ApplyCheck::kPositionsOutOfOrder,
                  CheckMistakes::kSameRow,
                  CheckMistakes::kHalfPrecisionAngles};
    h.fit = fit;
    h.expect = expect;
    h.referenceCode
        = u"Vaswani et al. 2017, section 3.5; tensorflow/tensor2tensor tensor2tensor/layers/common_attention.py, get_timing_signal_1d; huggingface/diffusers src/diffusers/models/embeddings.py, get_timestep_embedding; pytorch/torchtune torchtune/modules/position_embeddings.py, RotaryPositionalEmbeddings.build_rope_cache (its (cos, sin) pairs read flat)"_s;
    h.publishedForms = publishedForms;
    // Still unnamed: positions or diffusion timesteps rounded to half precision before the angles
    // (musubi-tuner#729's bf16 timesteps / 1000), or the angles formed in it.
    h.nameDeclaredPrecision
        = [](const TableMatch &declared, const TableRows &table, const std::vector<std::int64_t> &deviatingRows) {
              return RopeHalfAngles::name(declared, table, deviatingRows, RopeHalfAngles::Family::Sinusoid);
          };
    return h;
}

} // namespace posenc::SinusoidalTableCheck
