#include "RopeHalfAngles.h"

#include "check/CellTolerance.h"
#include "check/CheckDiagnosis.h"
#include "check/DeclaredWords.h"
#include "check/PairReference.h"
#include "check/TableSample.h"

#include <QStringList>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::RopeHalfAngles {

namespace {

// The rows the pipelines are scored on: the sample's (TableSample) and those the stream found
// deviating first, with their cells.
struct HalfAngleRows
{
    std::vector<std::int64_t> rows;
    std::vector<float> values; // rows x cols
};

struct HalfAngleScore
{
    std::int64_t compared = 0;
    std::int64_t bad = 0;
};

// A pipeline with its frequencies formed (one per pair).
struct Formed
{
    Pipeline pipeline;
    std::vector<double> frequencies;
    HalfAngleScore score;
};

// float16's largest finite value: positions and angles past it are infinite in float16.
constexpr double kFloat16Largest = 65504.0;
// Of the cells compared, the share a pipeline may leave beyond the rounding and still explain the
// table: a float32 inv_freq one unit away from the code's (its pow) moves a product across a
// rounding boundary of the half format now and then, which moves that cell by a unit of the angle.
constexpr std::int64_t kCellsPerStray = 1000;
// The pipelines are first scored on a few rows of the sample, this many cells, and only the best of
// them (at most kKept) on every row.
constexpr std::int64_t kFirstCells = 16384;
constexpr std::size_t kKept = 12;

QString formatWord(bool bfloat16)
{
    return bfloat16 ? u"bfloat16"_s : u"float16"_s;
}

// The largest position whose every integer below it the format holds: 2^(mantissa bits + 1).
std::int64_t exactPositions(bool bfloat16)
{
    return bfloat16 ? 256 : 2048;
}

std::optional<HalfAngleRows> readRows(const TableRows &table, const std::vector<std::int64_t> &deviatingRows)
{
    constexpr std::int64_t kCells = std::int64_t(1) << 20;
    HalfAngleRows read;
    read.rows = sampleRows(table.rows(), table.cols(), kCells);
    read.rows.insert(read.rows.end(), deviatingRows.begin(), deviatingRows.end());
    std::sort(read.rows.begin(), read.rows.end());
    read.rows.erase(std::unique(read.rows.begin(), read.rows.end()), read.rows.end());
    const std::int64_t cols = table.cols();
    read.values.resize(read.rows.size() * std::size_t(cols));
    QString error;
    for (std::size_t k = 0; k < read.rows.size(); ++k) {
        if (!table.read(read.rows[k], 1, read.values.data() + k * std::size_t(cols), error))
            return std::nullopt;
    }
    return read;
}

// The cells of rows `from`, `from + step`, … against the reference's columns, each angle as
// `pipeline` forms it from `frequencies` (nullptr: the exact angle p w).
HalfAngleScore scoreRows(const HalfAngleRows &rows, std::size_t step, const PairReferenceSpec &spec,
                         const CellTolerance &tolerance, const Formed *formed)
{
    HalfAngleScore s;
    const std::int64_t cols = spec.cols();
    for (std::size_t k = 0; k < rows.rows.size(); k += step) {
        const std::int64_t row = rows.rows[k];
        if (!spec.compared(row))
            continue;
        const std::int64_t p = spec.position(row);
        const double held = formed ? position(formed->pipeline, p) : double(p);
        const float *cells = rows.values.data() + k * std::size_t(cols);
        for (std::int64_t c = 0; c < cols; ++c) {
            const ReferenceColumn &column = spec.columns[std::size_t(c)];
            double value = 0.0;
            if (column.pair >= 0) {
                const std::size_t pair = std::size_t(column.pair);
                const double a = formed ? angle(formed->pipeline, formed->frequencies[pair], held)
                                        : held * spec.schedule.w[pair];
                value = spec.schedule.amplitude * (column.isCos ? std::cos(a) : std::sin(a));
            }
            const double limit = kCellRoundingMargin * tolerance.limit(value, c, double(p));
            ++s.compared;
            s.bad += !(std::fabs(double(cells[c]) - value) <= limit);
        }
    }
    return s;
}

// Every pipeline worth trying for `family`, each with its frequencies, in order of fewer stages
// first; a pipeline whose frequencies and positions equal an earlier one's is left out (a stage the
// format holds exactly, an exponent i/32 in bfloat16).
std::vector<Formed> pipelines(Family family, const std::optional<Powers> &powers, const FrequencySchedule &schedule,
                              std::int64_t lastPosition)
{
    std::vector<unsigned> frequencyStages {0u, InvFreq};
    if (family == Family::Rope && powers) {
        for (unsigned bits = 1; bits < 32; ++bits) {
            const unsigned stages = (bits & 1 ? Exponent : 0u) | (bits & 2 ? Base : 0u) | (bits & 4 ? Power : 0u)
                | (bits & 8 ? InvFreq : 0u) | (bits & 16 ? Divide : 0u);
            if ((stages & Divide) && (stages & InvFreq))
                continue;
            if (stages != InvFreq)
                frequencyStages.push_back(stages);
        }
    }
    std::vector<unsigned> positionStages {0u, Positions};
    if (family == Family::Sinusoid)
        positionStages = {0u, Positions, Timesteps, Timesteps | Positions};
    std::vector<unsigned> all;
    for (const unsigned f : frequencyStages)
        for (const unsigned p : positionStages)
            for (const unsigned product : {0u, unsigned(Product)})
                if (f | p | product)
                    all.push_back(f | p | product);
    std::stable_sort(all.begin(), all.end(),
                     [](unsigned a, unsigned b) { return std::popcount(a & ~Divide) < std::popcount(b & ~Divide); });
    std::vector<Formed> out;
    for (const bool bfloat16 : {true, false}) {
        if (!bfloat16 && lastPosition > kFloat16Largest)
            continue;
        for (const unsigned stages : all) {
            // Positions the format holds exactly round to themselves: that pipeline is the one without.
            if ((stages & Positions) && lastPosition < exactPositions(bfloat16))
                continue;
            if ((stages & Base) && !bfloat16 && powers && powers->theta > kFloat16Largest)
                continue;
            Formed f {{stages, bfloat16}, {}, {}};
            for (std::size_t i = 0; i < schedule.w.size(); ++i)
                f.frequencies.push_back(frequency(f.pipeline, powers, std::int64_t(i), schedule.w[i]));
            const unsigned positionBits = Positions | Timesteps | Product | Divide;
            const bool same = std::any_of(out.begin(), out.end(), [&](const Formed &o) {
                return o.pipeline.bfloat16 == bfloat16 && (o.pipeline.stages & positionBits) == (stages & positionBits)
                    && o.frequencies == f.frequencies;
            });
            if (!same)
                out.push_back(std::move(f));
        }
    }
    return out;
}

// The code that forms its angles as `pipeline` does.
QString codeWords(const Pipeline &pipeline)
{
    if (pipeline.stages & Timesteps)
        return u"as musubi-tuner's Qwen-Image generate did before kohya-ss/musubi-tuner#729 (timestep = "
               "t.expand(B).to(latents.dtype), then timestep / 1000 into diffusers' get_timestep_embedding at scale "
               "1000)"_s;
    if (pipeline.stages & Divide)
        return u"as keras-hub's CachedGemmaAttention._apply_rope did under mixed_bfloat16 before "
               "keras-team/keras-hub#1497 (freq_exponents, timescale = max_wavelength ** freq_exponents, positions "
               "and radians = positions / timescale in the compute dtype)"_s;
    if (pipeline.stages & (Exponent | Base | Power))
        return u"as tinygrad's precompute_freqs_cis did with DEFAULT_FLOAT bfloat16 before tinygrad/tinygrad#17132 "
               "(1.0 / (theta ** (arange(0, dim, 2) / dim)) and arange(end) * freqs in the default float)"_s;
    if ((pipeline.stages & Product) && (pipeline.stages & InvFreq) && pipeline.bfloat16)
        return u"as candle's RotaryEmbedding::new did before huggingface/candle#3005 (inv_freq and t cast to the "
               "model's dtype, t.matmul, cos) and transformers' LlamaRotaryEmbedding.forward under a bf16 autocast "
               "before huggingface/transformers#29285 (the matmul's operands and result in bf16)"_s;
    if ((pipeline.stages & Product) && (pipeline.stages & InvFreq))
        return u"as GPT-NeoX's RotaryEmbedding.forward computes it for a model in half (EleutherAI/gpt-neox#1003: "
               "the inv_freq buffer, t = arange(seq_len).type_as(inv_freq) and the einsum in fp16), and an fp16 "
               "autocast around transformers' forward before huggingface/transformers#29285"_s;
    if ((pipeline.stages & ~Positions) == Product)
        return u"the angles cast to the model's dtype before cos and sin (emb.to(dtype).cos())"_s;
    if ((pipeline.stages & ~Positions) == InvFreq)
        return u"inv_freq cast to the model's dtype before the einsum, as sglang-jax's RotaryEmbedding.__call__ did "
               "before sgl-project/sglang-jax#1473"_s;
    return u"the position ids cast to the model's dtype (t.type_as(inv_freq) of a model in half)"_s;
}

QString number(double x)
{
    return QString::number(x, 'g', 10);
}

} // namespace

double rounded(double x, bool bfloat16)
{
    x = double(float(x));
    if (x == 0.0 || !std::isfinite(x))
        return x;
    const int bits = bfloat16 ? 7 : 10; // explicit mantissa bits
    const int minExponent = bfloat16 ? -126 : -14;
    const double quantum = std::ldexp(1.0, std::max(std::ilogb(x), minExponent) - bits);
    const double r = std::nearbyint(x / quantum) * quantum;
    if (!bfloat16 && std::fabs(r) > kFloat16Largest)
        return std::copysign(std::numeric_limits<double>::infinity(), x);
    return r;
}

std::optional<Powers> powersOf(const FrequencySchedule &schedule)
{
    const std::size_t pairs = schedule.w.size();
    if (pairs < 2 || schedule.w[0] != 1.0 || !(schedule.w[1] > 0.0 && schedule.w[1] < 1.0))
        return std::nullopt;
    const Powers powers {std::exp(-std::log(schedule.w[1]) * double(pairs)), std::int64_t(2 * pairs)};
    for (std::size_t i = 0; i < pairs; ++i) {
        const double w = std::pow(powers.theta, -2.0 * double(i) / double(powers.rotaryDim));
        if (!(std::fabs(w - schedule.w[i]) <= 1e-9 * schedule.w[i]))
            return std::nullopt;
    }
    // rope_theta as a config gives it: an integer where it is within rounding of one.
    Powers out = powers;
    if (std::fabs(out.theta - std::round(out.theta)) <= 1e-6 * out.theta)
        out.theta = std::round(out.theta);
    return out;
}

double frequency(const Pipeline &pipeline, const std::optional<Powers> &powers, std::int64_t pair, double w)
{
    const bool half = pipeline.bfloat16;
    const auto round = [&](double x, unsigned stage) { return pipeline.stages & stage ? rounded(x, half) : x; };
    if (!powers || !(pipeline.stages & (Exponent | Base | Power | Divide)))
        return round(double(float(w)), InvFreq);
    // arange(0, d, 2) / d: the even index, then the quotient, each in the dtype.
    const double index = round(double(2 * pair), Exponent);
    const double exponent = round(double(float(index / double(powers->rotaryDim))), Exponent);
    const double base = round(double(float(powers->theta)), Base);
    const double timescale = round(double(float(std::pow(base, exponent))), Power);
    if (pipeline.stages & Divide)
        return timescale;
    return round(double(float(1.0 / timescale)), InvFreq);
}

double position(const Pipeline &pipeline, std::int64_t p)
{
    double x = double(float(p));
    if (pipeline.stages & Positions)
        x = rounded(x, pipeline.bfloat16);
    if (pipeline.stages & Timesteps)
        x = rounded(double(float(x / kTimestepScale)), pipeline.bfloat16);
    return x;
}

double angle(const Pipeline &pipeline, double frequency, double position)
{
    double a = double(float(pipeline.stages & Divide ? position / frequency : position * frequency));
    if (pipeline.stages & Timesteps)
        a = double(float(a * kTimestepScale));
    if (pipeline.stages & Product)
        a = rounded(a, pipeline.bfloat16);
    return a;
}

std::optional<Pipeline> vectorStages(const std::vector<double> &v, const FrequencySchedule &reference, bool bfloat16)
{
    const std::optional<Powers> powers = powersOf(reference);
    if (!powers || v.size() != reference.w.size())
        return std::nullopt;
    std::vector<unsigned> tried;
    for (unsigned bits = 1; bits < 8; ++bits)
        tried.push_back(InvFreq | (bits & 1 ? Exponent : 0u) | (bits & 2 ? Base : 0u) | (bits & 4 ? Power : 0u));
    std::stable_sort(tried.begin(), tried.end(),
                     [](unsigned a, unsigned b) { return std::popcount(a) < std::popcount(b); });
    for (const unsigned stages : tried) {
        const Pipeline pipeline {stages, bfloat16};
        std::size_t differing = 0;
        for (std::size_t i = 0; i < v.size(); ++i)
            differing += frequency(pipeline, powers, std::int64_t(i), reference.w[i]) != double(float(v[i]));
        // A float32 power a unit from the code's may round the other way now and then.
        constexpr std::size_t kPairsPerStray = 32;
        if (differing * kPairsPerStray <= v.size())
            return pipeline;
    }
    return std::nullopt;
}

namespace {

// The positions rounded, in words with one of them read back: "position 606 read as 609.375".
QString positionExample(const Pipeline &pipeline, const PairReferenceSpec &spec,
                        const std::vector<std::int64_t> &deviatingRows)
{
    if (!(pipeline.stages & (Positions | Timesteps)))
        return {};
    const double scale = pipeline.stages & Timesteps ? kTimestepScale : 1.0;
    for (const std::int64_t row : deviatingRows) {
        if (!spec.compared(row))
            continue;
        const std::int64_t p = spec.position(row);
        const double held = position(pipeline, p) * scale;
        if (held != double(p))
            return u"; %1 %2 read as %3"_s.arg(pipeline.stages & Timesteps ? u"timestep"_s : u"position"_s)
                .arg(p)
                .arg(number(held));
    }
    return {};
}

// Of the pipelines that explain the cells alike, the one with the fewest stages (the first) in
// words: stages the others add are said not to show; pipelines that differ otherwise are each said.
QString tiedWords(const std::vector<const Formed *> &tied, const std::optional<Powers> &powers)
{
    const Pipeline &chosen = tied.front()->pipeline;
    unsigned hidden = 0;
    bool supersets = true;
    for (const Formed *f : tied) {
        const bool superset = f->pipeline.bfloat16 == chosen.bfloat16
            && (f->pipeline.stages & chosen.stages) == chosen.stages;
        supersets = supersets && superset;
        hidden |= f->pipeline.stages & ~chosen.stages;
    }
    if (tied.size() == 1)
        return pipelineWords(chosen, powers);
    if (supersets && hidden && !(hidden & Divide)) {
        Pipeline shown {hidden, chosen.bfloat16};
        QString which = pipelineWords(shown, powers);
        which = which.left(which.indexOf(u" rounded to "_s));
        return u"%1 (whether %2 %3 rounded too does not show in these cells)"_s.arg(
            pipelineWords(chosen, powers), which, std::popcount(hidden) > 1 ? u"were"_s : u"was"_s);
    }
    QStringList each;
    constexpr std::size_t kSaid = 4;
    for (std::size_t k = 0; k < tied.size() && k < kSaid; ++k)
        each.append(pipelineWords(tied[k]->pipeline, powers));
    if (tied.size() > kSaid)
        each.append(u"%1 more"_s.arg(tied.size() - kSaid));
    return u"%1 (these give the same cells here: which of them the code did does not show)"_s.arg(
        each.join(u"; or "_s));
}

// The code of each pipeline that ties, each once.
QString tiedCode(const std::vector<const Formed *> &tied)
{
    QStringList each;
    for (const Formed *f : tied) {
        const QString code = codeWords(f->pipeline);
        if (!each.contains(code))
            each.append(code);
    }
    return each.join(u"; or "_s);
}

} // namespace

std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table,
                               const std::vector<std::int64_t> &deviatingRows, Family family)
{
    const auto *reference = dynamic_cast<const PairReference *>(declared.reference.get());
    if (!reference || reference->cols() != table.cols() || deviatingRows.empty())
        return std::nullopt;
    const PairReferenceSpec &spec = reference->spec();
    if (spec.positionRounding != PositionRounding::None)
        return std::nullopt;
    const auto rows = readRows(table, deviatingRows);
    if (!rows)
        return std::nullopt;
    std::int64_t lastPosition = 0;
    for (const std::int64_t row : rows->rows)
        lastPosition = spec.compared(row) ? std::max(lastPosition, spec.position(row)) : lastPosition;
    // The tolerance of the table's format with float32 angles', for every pipeline and the declared
    // reference alike: the pipelines form their angles in float32 from operands that may be a unit
    // from the code's.
    const ValueFormat format = representableFormat(rows->values.data(), std::int64_t(rows->values.size()));
    const CellTolerance tolerance = cellTolerance(format, true, table.storedType(), table.textRounding(), spec);
    const HalfAngleScore exact = scoreRows(*rows, 1, spec, tolerance, nullptr);
    const std::optional<Powers> powers = family == Family::Rope ? powersOf(spec.schedule) : std::nullopt;
    std::vector<Formed> formed = pipelines(family, powers, spec.schedule, lastPosition);
    // First on a few rows, then the best of those on all.
    const std::size_t step = std::max<std::size_t>(
        1, std::size_t(std::int64_t(rows->rows.size()) * table.cols() / kFirstCells));
    std::vector<std::pair<std::int64_t, std::size_t>> first;
    for (std::size_t k = 0; k < formed.size(); ++k)
        first.emplace_back(scoreRows(*rows, step, spec, tolerance, &formed[k]).bad, k);
    std::stable_sort(first.begin(), first.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<const Formed *> scored;
    for (std::size_t k = 0; k < first.size() && k < kKept; ++k) {
        if (step > 1 && first[k].first > 4 * first.front().first + 32)
            break;
        Formed &f = formed[first[k].second];
        f.score = scoreRows(*rows, 1, spec, tolerance, &f);
        scored.push_back(&f);
    }
    if (scored.empty())
        return std::nullopt;
    // The fewest cells beyond the rounding, then the fewest stages (the order pipelines() gives).
    std::stable_sort(scored.begin(), scored.end(), [](const Formed *a, const Formed *b) {
        if (a->score.bad != b->score.bad)
            return a->score.bad < b->score.bad;
        return a < b;
    });
    const Formed &best = *scored.front();
    if (best.score.bad >= exact.bad || best.score.bad * kCellsPerStray > best.score.compared)
        return std::nullopt;
    std::vector<const Formed *> tied;
    for (const Formed *f : scored)
        if (f->score.bad == best.score.bad)
            tied.push_back(f);
    const Pipeline &pipeline = best.pipeline;
    TableMatch m = declared;
    m.mistakes = {CheckMistakes::kHalfPrecisionAngles};
    m.notes.prepend(m.diagnosis);
    const std::int64_t firstRow = deviatingRows.front();
    QString unshown;
    if (!(pipeline.stages & Positions) && lastPosition < exactPositions(pipeline.bfloat16))
        unshown = u" (%1 holds every position up to %2 exactly: whether the positions were rounded too does not "
                  "show)"_s.arg(formatWord(pipeline.bfloat16))
                      .arg(lastPosition);
    QString how = tied.size() == 1 && pipeline.stages == Positions
        ? CheckDiagnosis::halfPrecisionLine(pipeline.bfloat16 ? PositionRounding::BFloat16 : PositionRounding::Float16)
        : u"%1%2, %3"_s.arg(tiedWords(tied, powers), unshown, tiedCode(tied));
    how += positionExample(pipeline, spec, deviatingRows);
    const QString correct = family == Family::Sinusoid
        ? u"The correct line keeps the positions (timesteps) in float32 and forms each angle in float32 "
          "(diffusers' get_timestep_embedding: timesteps.float()), as %2 %1 does"_s.arg(declared.referenceText,
                                                                                         DeclaredWords::the())
        : u"The correct line forms each angle in float32 and rounds only cos and sin to the model's dtype "
          "(transformers' LlamaRotaryEmbedding.forward: autocast disabled, cos().to(x.dtype)), as %2 %1 "
          "does"_s.arg(declared.referenceText, DeclaredWords::the());
    m.diagnosis = u"the angles were formed in half precision: %1; the error first exceeds the rounding at position "
                  "%2 (row %3). %4"_s.arg(how)
                      .arg(spec.position(firstRow))
                      .arg(firstRow)
                      .arg(correct);
    m.notes.append(u"%1 of the %2 cells compared (the sample's rows and the first rows that deviate) equal this "
                   "computation; %3 equal %4"_s.arg(best.score.compared - best.score.bad)
                       .arg(best.score.compared)
                       .arg(exact.compared - exact.bad)
                       .arg(DeclaredWords::reference()));
    return m;
}

} // namespace posenc::RopeHalfAngles
