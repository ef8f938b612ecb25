#include "SharedLessonNumbers.h"

#include "ClosedForms.h"
#include "DropoutMask.h"
#include "Engine.h"
#include "FamiliesDistance.h"
#include "FamilySpec.h"
#include "NumberText.h"
#include "ParamTable.h"
#include "TitleText.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::SharedLessonNumbers {

using namespace LessonNumbers;

namespace {

double d(const Params &p)
{
    return double(p.dModel);
}

double cells(const Params &p)
{
    return double(p.maxLen) * double(p.dModel);
}

// k of concat, whatever the composition now: what concatenating would give the PE.
std::int64_t concatColumns(const Params &p)
{
    Params concat = p;
    concat.compose = Compose::Concat;
    return concat.peColumns();
}

std::optional<double> sigma(const Params &p)
{
    return p.embeddings ? std::nullopt : std::optional(p.sigma());
}

const QString kLoaded = u"not a closed form here (the embeddings come from a file; the figures measure it)"_s;

// E||s E_p||^2 for random embeddings; none for a loaded matrix.
std::optional<double> embeddingNormSquared(const Params &p)
{
    const auto s = sigma(p);
    return s ? std::optional(ClosedForms::embeddingNormSquared(p.scale(), *s, p.embeddingColumns())) : std::nullopt;
}

// ||PE_p||^2 where the family's term has it in closed form (every sin/cos pair holds 1).
std::optional<double> peNormSquared(const Params &p)
{
    const FamilySpec &family = Families::spec(p.encoding);
    return family.term && family.term->normSquared ? family.term->normSquared(p) : std::nullopt;
}

QString noClosedNorm(const Params &p)
{
    if (!p.hasPositionTerm())
        return u"the model adds no position term to its input"_s;
    const FamilySpec &family = Families::spec(p.encoding);
    if (const auto why = family.term && family.term->noOneNorm ? family.term->noOneNorm(p) : std::nullopt)
        return *why;
    return u"the position term's norm has no closed form here (the figures measure it)"_s;
}

// A ratio to ||PE_p||, where both norms have closed forms.
Number toPe(const Params &p, std::optional<double> squared)
{
    const auto pe = peNormSquared(p);
    if (!pe)
        return none(noClosedNorm(p));
    return squared ? real(std::sqrt(*squared / *pe)) : none(kLoaded);
}

// The model's family in the words of its heading, within a sentence ("RoPE", "sinusoidal PE").
QString familyWords(const Params &p)
{
    QString heading = Families::spec(p.encoding).heading;
    if (heading.isEmpty())
        return u"no position encoding (NoPE)"_s;
    // "Sinusoidal PE" starts small in a sentence; "RoPE", "ALiBi", "T5 …" keep their letters.
    const QString first = heading.section(u' ', 0, 0);
    if (first.size() > 1 && std::all_of(first.cbegin() + 1, first.cend(), [](QChar c) { return c.isLower(); }))
        heading[0] = heading[0].toLower();
    return heading;
}

// A condition per family, "is_rope", "is_rope_2d": the model is of it.
// Whether the family's manifest names a panel of the families figure (POSENC_FAMILY_PANEL), which
// render makes (FamilyPanels): a family without one (M-RoPE, 2-D RoPE, ...) has no panel to tint.
bool hasFamiliesPanel(Encoding encoding)
{
    static const std::vector<bool> panels = [] {
        std::vector<bool> list(std::size_t(Families::all().size()), false);
        // The list's n-th family is the enum's n-th value.
        std::size_t next = 0, current = 0;
#define POSENC_FAMILY(Name, member) current = next++;
#define POSENC_FAMILY_PANEL(Name) list[current] = true;
#include "FamilyList.h"
#undef POSENC_FAMILY_PANEL
#undef POSENC_FAMILY
        return list;
    }();
    return panels[std::size_t(encoding)];
}

QList<Entry> familyConditions()
{
    QList<Entry> list {
        {u"fam_panel"_s, u"a condition: the model's family has a panel in the families figure"_s, [](const Params &p) {
             return condition(hasFamiliesPanel(p.encoding),
                              u"%1 has no panel in the families figure"_s.arg(familyWords(p)));
         }}};
    for (const FamilySpec &family : Families::all()) {
        const Encoding encoding = family.encoding;
        list.append({u"is_"_s + QString(family.word).replace(u'-', u'_'),
                     u"a condition: the model's encoding is %1"_s.arg(family.word), [encoding](const Params &p) {
                         return condition(
                             p.encoding == encoding,
                             u"its encoding is %1, not %2"_s.arg(Families::word(p.encoding), Families::word(encoding)));
                     }});
    }
    return list;
}

Number keepFactor(const Params &p)
{
    if (p.dropout >= 1.0)
        return none(u"none (p = 1 zeroes every cell and rescales nothing)"_s);
    return real(1.0 / (1.0 - p.dropout));
}

QString dropoutNote(const Params &p)
{
    if (!p.training)
        return u"Evaluation mode now: dropout is off, and Y = X (masked-fill still zeroes its padding rows)."_s;
    if (p.dropout <= 0.0)
        return u"p = 0 now: nothing is dropped, and Y = X."_s;
    if (p.dropout >= 1.0)
        return u"p = 1 now: every cell that dropout reaches is zeroed."_s;
    return u"Training, p = %1: each cell is zeroed with probability %1, the others multiplied by %2."_s.arg(
        NumberText::prose(p.dropout), NumberText::prose(1.0 / (1.0 - p.dropout)));
}

QString specialList(const Params &p)
{
    QStringList rows;
    for (const std::int64_t row : p.specialRows())
        rows.append(QString::number(row));
    return rows.isEmpty() ? u"none"_s : rows.join(u", "_s);
}

// The cells of the special rows that this seed's mask zeroes under dropout on the sum (the
// masked-fill snippet's rule for them): the count the figures show beside its mean p·d per row.
// O(d) per special row, the mask's row kernel.
Number specialDropped(const Params &p)
{
    if (!p.training || p.dropout <= 0.0)
        return integer(0);
    Params sum = p;
    sum.dropoutMode = DropoutMode::Sum;
    const DropoutMask mask(sum);
    std::vector<std::uint64_t> bits(static_cast<std::size_t>((p.dModel + 63) / 64));
    std::int64_t dropped = 0;
    for (const std::int64_t row : p.specialRows()) {
        mask.keepBits(row, 0, p.dModel, bits.data());
        std::int64_t kept = 0;
        for (const std::uint64_t word : bits)
            kept += std::popcount(word);
        dropped += p.dModel - kept;
    }
    return count(double(dropped));
}

// Tables small enough that the nearest PE row of every row of Y is found on the GUI thread:
// L·L·d multiplications at most (~10 ms).
constexpr double kRecoveryWork = double(1 << 24);

// How many positions q keep their position through dropout: PE_q is the PE row with the largest
// dot product with the PE's part of Y_q, M ⊙ PE_q / (1 − p) (its PE columns in concat), at
// dropout probability `dropout`. The PE's part alone: what dropout leaves of the position, apart
// from the embedding added to it.
Number recovered(const Params &p, double dropout)
{
    if (double(p.maxLen) * double(p.maxLen) * d(p) > kRecoveryWork)
        return none(u"not computed past L·L·d = 2²⁴ multiplications"_s);
    if (dropout >= 1.0)
        return none(u"nothing left of Y at p = 1"_s);
    Params at = p;
    at.dropout = dropout;
    at.training = true;
    // Dropout on the sum, of the PE alone (s·E = 0): the same mask.
    at.dropoutMode = DropoutMode::Sum;
    at.scaleKind = ScaleKind::Custom;
    at.customScale = 0.0;
    const Engine engine(at);
    const std::int64_t k = at.peColumns();
    RowMatrixXf y(at.maxLen, at.dModel), pe(at.maxLen, k);
    engine.computeBlock(Quantity::Output, {0, at.maxLen, 0, at.dModel}, y);
    engine.computeBlock(Quantity::Pe, {0, at.maxLen, 0, k}, pe);
    const Eigen::MatrixXd scores = y.rightCols(k).cast<double>() * pe.cast<double>().transpose();
    std::int64_t found = 0;
    for (std::int64_t q = 0; q < at.maxLen; ++q) {
        Eigen::Index best = 0;
        scores.row(q).maxCoeff(&best);
        found += best == q ? 1 : 0;
    }
    return integer(found);
}

// The positions the mean |cos| between s·E_q and PE_q is taken over: every one up to 4096, the
// first 4096 past it, and no more than 2^22 cells of each table (a few milliseconds on every
// change of the controls; at d 396132, 4096 rows were two 6 GiB blocks on the GUI thread).
std::int64_t cosineRows(const Params &p)
{
    constexpr std::int64_t kMaxCells = std::int64_t(1) << 22;
    return std::min(
        {p.maxLen, std::int64_t(4096), std::max<std::int64_t>(1, kMaxCells / std::max<std::int64_t>(1, p.dModel))});
}

// The mean |cos| between s·E_q and PE_q over cosineRows: how far from parallel a token's
// embedding and its position's code are (concat: E's and the PE's columns differ, so the sum's d
// columns are compared).
Number embeddingPeCosine(const Params &p)
{
    Params sum = p;
    sum.compose = Compose::Sum;
    sum.peDims.reset();
    const Engine engine(sum);
    const std::int64_t rows = cosineRows(p);
    RowMatrixXf e(rows, p.dModel), pe(rows, p.dModel);
    if (engine.check(Quantity::Embedding, {0, rows, 0, p.dModel}))
        return none(u"not computed: the embeddings cannot be read here"_s);
    engine.computeBlock(Quantity::Embedding, {0, rows, 0, p.dModel}, e);
    engine.computeBlock(Quantity::Pe, {0, rows, 0, p.dModel}, pe);
    double total = 0.0;
    for (std::int64_t q = 0; q < rows; ++q) {
        const double norms = e.row(q).cast<double>().norm() * pe.row(q).cast<double>().norm();
        total += norms > 0.0 ? std::abs(e.row(q).cast<double>().dot(pe.row(q).cast<double>())) / norms : 0.0;
    }
    return real(total / double(rows));
}

// The families figure's query and the distances back from it that its lesson quotes.
QList<Entry> familiesEntries()
{
    return {
        {u"fam_query"_s, u"the query of the families figure: (L − 1)/2"_s,
         [](const Params &p) { return integer(familiesDefaultQuery(p)); }},
        // The families lesson said "a hundred back" and "1000 back" from q = 98 (MAE's 197 patches)
        // and q = 255, where the figure draws no such key: the distances it quotes are these.
        {u"fam_far"_s,
         u"the distance back from the families figure's query of the far key its lesson quotes: 100, or the "
         "farthest key the figure draws unmasked where that is nearer"_s,
         [](const Params &p) { return atFamiliesDistance(p, FamiliesDistance::Far, integer); }},
        {u"fam_farthest"_s, u"the same for 1000: the farthest key that lesson quotes, beyond the key 10 back"_s,
         [](const Params &p) { return atFamiliesDistance(p, FamiliesDistance::Farthest, integer); }},
    };
}

// Whose p the figures show (docs/ARCHITECTURE.md, Lessons): a named model's own, where its preset or
// config names its input dropout; else a p of the lesson's, said in a sentence that tells why: the
// model's code has no dropout on its input, or its preset or config does not say. Each is said only
// of a model it is true of.
QList<Entry> dropoutConditions()
{
    using ModelNumber = std::function<Number(const LessonModel &)>;
    const auto unnamed = u"the parameters are no named model's"_s;
    return {
        {u"model_dropout"_s,
         u"a condition: p is the named model's own input dropout, as its preset or config names it"_s,
         ModelNumber([unnamed](const LessonModel &m) {
             if (m.name.isEmpty())
                 return condition(false, unnamed);
             return condition(m.keys.contains(u"dropout"_s), u"%1's preset or config names no dropout"_s.arg(m.name));
         })},
        {u"no_model_dropout"_s, u"a condition: the named model's code applies no dropout to its first layer's input"_s,
         ModelNumber([unnamed](const LessonModel &m) {
             if (m.name.isEmpty())
                 return condition(false, unnamed);
             return condition(m.noInputDropout,
                              u"%1's preset does not say its code has no input dropout"_s.arg(m.name));
         })},
        {u"dropout_unsaid"_s, u"a condition: the named model's preset or config says nothing of dropout on its input"_s,
         ModelNumber([unnamed](const LessonModel &m) {
             if (m.name.isEmpty())
                 return condition(false, unnamed);
             return condition(!m.noInputDropout && !m.keys.contains(u"dropout"_s),
                              u"%1's preset or config says what dropout its input has"_s.arg(m.name));
         })},
        {u"dropout_off"_s, u"a condition: dropout drops nothing, p = 0 in training"_s,
         [](const Params &p) {
             return condition(p.training && p.dropout <= 0.0, u"dropout drops at p = %1"_s.arg(p.dropout));
         }},
    };
}

// Whether a named model sets `key` itself (its preset's or its config's): the condition `own`, true
// too of parameters no model's, and `unsaid`, of a named model that does not, for the thing `what`.
QList<Entry> setByModel(const QString &own, const QString &unsaid, const QString &key, const QString &what)
{
    using ModelNumber = std::function<Number(const LessonModel &)>;
    return {
        {own, u"a condition: the model is unnamed or sets %1 itself"_s.arg(what),
         ModelNumber([key, what](const LessonModel &m) {
             return condition(m.name.isEmpty() || m.keys.contains(key), u"%1 does not set %2"_s.arg(m.name, what));
         })},
        {unsaid, u"a condition: the named model's preset or config does not say %1"_s.arg(what),
         ModelNumber([key, what](const LessonModel &m) {
             if (m.name.isEmpty())
                 return condition(false, u"the parameters are no named model's"_s);
             return condition(!m.keys.contains(key), u"%1's preset or config names %2"_s.arg(m.name, what));
         })},
    };
}

// Whose s and σ the numbers use (docs/ARCHITECTURE.md, Lessons): a named model's own where its
// preset or config names them, s = 1 where its code has no multiplier; else the lesson's, said so.
// σ was said to be Whisper's at d^-1/2 = 0.028, the lesson's default, not its init_std.
QList<Entry> scaleConditions()
{
    using ModelNumber = std::function<Number(const LessonModel &)>;
    return setByModel(u"model_scale"_s, u"scale_unsaid"_s, u"scale"_s, u"its embedding scale s"_s)
        + setByModel(u"model_init"_s, u"init_unsaid"_s, u"init"_s, u"how its embeddings start"_s)
        + QList<Entry> {
            // Why σ is the lesson's, in a parenthesis. The Whisper encoder was told its preset does
            // not say how its embeddings start: it has none. WhisperEncoder.forward adds its sinusoids
            // to gelu(conv2(gelu(conv1(input_features)))), the audio's features; MAE and DiT add
            // theirs to the patches' projections. A model that adds by column reads no token ids, and
            // what it adds its table to is what its first layers make of its input.
            {u"init_unsaid_why"_s, u"why σ is the lesson's: the model's input, or what its preset does not say"_s,
             ModelNumber([](const LessonModel &m) {
                 if (m.name.isEmpty() || m.keys.contains(u"init"_s))
                     return none(u"σ is no named model's lesson stand-in"_s);
                 if (m.params.batch.positions == Positions::ByColumn)
                     return word(u"%1 adds its table to the features its first layers make of its input, not to "
                                 "embeddings drawn at a σ"_s.arg(nameWithin(m)));
                 if (!m.embeddingInit.isEmpty())
                     return word(u"%1's code starts its embeddings with %2"_s.arg(nameWithin(m), m.embeddingInit));
                 return word(u"%1's preset or config does not say how its embeddings start"_s.arg(nameWithin(m)));
             })}}
        // masked-dropout said "at fairseq embedding init's d = 32", the lesson's width: an init
        // scheme's preset names no d_model.
        + setByModel(u"model_width"_s, u"width_unsaid"_s, u"d-model"_s, u"its width d_model"_s)
        + QList<Entry> {
            // frequencies gave fairseq embedding init "pair i turns at w_i = b^-2i/k", the paper's
            // table at the defaults, which fairseq's SinusoidalPositionalEmbedding.get_embedding is not
            // (exp(-i ln 10000 / (half_dim - 1)), the sines then the cosines): a preset that names its
            // family but none of the family's parameters leaves the table the lesson's.
            {u"table_unsaid"_s,
             u"a condition: the named model's preset or config names none of its family's parameters"_s,
             ModelNumber([](const LessonModel &m) {
                 if (m.name.isEmpty())
                     return condition(false, u"the parameters are no named model's"_s);
                 for (const QString &key : m.keys) {
                     const ParamSpec *row = ParamTable::find(key);
                     if (row && row->family == m.params.encoding)
                         return condition(false, u"%1's preset or config names its table's parameters"_s.arg(m.name));
                 }
                 return condition(true, QString());
             })},
            {u"d_owner"_s, u"whose d_model the numbers use: the model where it sets it, else \"the lesson\""_s,
             ModelNumber([](const LessonModel &m) {
                 if (m.name.isEmpty())
                     return word(u"this model"_s);
                 return m.keys.contains(u"d-model"_s) ? nameOf(m) : word(u"the lesson"_s);
             })},
            // sum-vs-concat said "Over fairseq embedding init's L = 1024 positions": the views' L is
            // the model's only where its preset names it and no flag or cap moved it.
            {u"L_owner"_s, u"whose max_len L is: the model where it is its own context, else \"the views\""_s,
             ModelNumber([](const LessonModel &m) {
                 if (m.name.isEmpty())
                     return word(u"this model"_s);
                 const bool own = m.keys.contains(u"max-len"_s) && m.context == m.params.maxLen;
                 return own ? nameOf(m) : word(u"the views"_s);
             })},
            // Transformer base was told what "its code multiplies": its preset is the paper's.
            {u"model_reference"_s, u"what the named model's values come from: \"code\", or \"paper\""_s,
             ModelNumber([](const LessonModel &m) {
                 if (m.name.isEmpty())
                     return none(u"the parameters are no named model's"_s);
                 return word(m.paper ? u"paper"_s : u"code"_s);
             })},
            {u"no_model_scale"_s, u"a condition: the named model's code multiplies its embeddings by nothing, s = 1"_s,
             ModelNumber([](const LessonModel &m) {
                 if (m.name.isEmpty())
                     return condition(false, u"the parameters are no named model's"_s);
                 return condition(m.noEmbeddingScale,
                                  u"%1's preset or config does not say its code multiplies by nothing"_s.arg(m.name));
             })},
            // The context a sentence may call the model's: its preset's or config's, whatever the
            // views' max_len (rope-scaling said Llama 4 Scout "runs to L = 131072", its max_len cap).
            {u"model_context"_s,
             u"the model's own context: its preset's or config's (its context above a capped max_len), else max_len"_s,
             ModelNumber([](const LessonModel &m) {
                 return integer(m.name.isEmpty() || m.context == 0 ? m.params.maxLen : m.context);
             })},
            // The views stop short of that context, by the preset's cap or by a flag: a sentence of
            // it says where the figures stop too (rope-scaling told Llama 4 Scout "runs to
            // 10485760", its figure "stretched to 131,072"), and not who stopped them.
            {u"model_context_capped"_s,
             u"a condition: the views' max_len is below the model's own context (its preset's cap, or a flag's)"_s,
             ModelNumber([](const LessonModel &m) {
                 return condition(!m.name.isEmpty() && m.context > m.params.maxLen,
                                  u"the views run to the model's whole context"_s);
             })},
            // left-padding gave the Whisper encoder, whose input is its table's 1500 rows, a row at
            // column 32767: the views' max_len above the model's own context is the lesson's.
            {u"model_context_exceeded"_s,
             u"a condition: the views' max_len is above the named model's own context (the lesson's length)"_s,
             ModelNumber([](const LessonModel &m) {
                 return condition(!m.name.isEmpty() && m.context > 0 && m.params.maxLen > m.context,
                                  u"the views stay within the model's own context"_s);
             })},
        };
}

// Words a sentence sets beside the model's name or the figures' row names.
QList<Entry> wordEntries()
{
    return {
        {u"family_beside"_s,
         u"the family beside the model's name: without the family's name where the model's says it"_s,
         std::function<Number(const LessonModel &)>(
             [](const LessonModel &m) { return word(familyBeside(m, familyWords(m.params))); })},
        {u"special_tokens"_s, u"the special rows' tokens by position, as the figures name them: \"[CLS] at 0, …\""_s,
         [](const Params &p) {
             const QString tokens = TitleText::specialTokensText(p);
             return tokens.isEmpty() ? none(u"no row is special"_s) : word(tokens);
         }},
    };
}

Number gridRatio(const Params &p, bool sqrtScale, bool scaledSigma)
{
    // sqrt(s^2 sigma^2 d / (d/2)) = s sigma sqrt(2)
    const double s = sqrtScale ? std::sqrt(d(p)) : 1.0;
    const double sg = scaledSigma ? 1.0 / std::sqrt(d(p)) : 1.0;
    return real(s * sg * std::numbers::sqrt2);
}

} // namespace

QList<Entry> entries()
{
    QList<Entry> list = {
        {u"model"_s, u"the model's name, or \"this model\" where the parameters are no named model's"_s,
         std::function<Number(const LessonModel &)>(
             [](const LessonModel &m) { return m.name.isEmpty() ? word(u"this model"_s) : nameOf(m); })},
        {u"named"_s, u"a condition: the parameters are a named model's (a preset's, a config's)"_s,
         std::function<Number(const LessonModel &)>([](const LessonModel &m) {
             return condition(!m.name.isEmpty(), u"the parameters are no named model's"_s);
         })},
        {u"family"_s, u"the model's family, as its heading names it"_s,
         [](const Params &p) { return word(familyWords(p)); }},
        {u"adds_term"_s, u"a condition: the model adds a position term to its input"_s,
         [](const Params &p) {
             return condition(p.hasPositionTerm(), u"%1 adds no position term to its input"_s.arg(familyWords(p)));
         }},
        {u"sums"_s, u"a condition: X = s·E + PE"_s,
         [](const Params &p) { return condition(p.hasPositionTerm() && !p.concatenates(), u"X is no sum"_s); }},
        {u"concatenates"_s, u"a condition: X = [s·E | PE]"_s,
         [](const Params &p) { return condition(p.concatenates(), u"X is no concatenation"_s); }},
        {u"d"_s, u"d_model"_s, [](const Params &p) { return integer(p.dModel); }},
        {u"L"_s, u"max_len: positions 0 .. L − 1"_s, [](const Params &p) { return integer(p.maxLen); }},
        {u"p"_s, u"the dropout probability"_s, [](const Params &p) { return real(p.dropout); }},
        {u"s"_s, u"the embedding scale s"_s, [](const Params &p) { return real(p.scale()); }},
        {u"sigma"_s, u"the standard deviation σ of the random embeddings"_s,
         [](const Params &p) { return sigma(p) ? real(*sigma(p)) : none(kLoaded); }},
        {u"k"_s, u"the PE's columns: d in sum, the last k in concat"_s,
         [](const Params &p) { return integer(p.peColumns()); }},
        {u"d_e"_s, u"the embedding's columns: d in sum, d − k in concat"_s,
         [](const Params &p) { return integer(p.embeddingColumns()); }},
        {u"concat_k"_s, u"the PE's columns in concat: pe_dims, d/2 unless given"_s,
         [](const Params &p) { return integer(concatColumns(p)); }},
        {u"concat_d_e"_s, u"the embedding's columns in concat: d − pe_dims"_s,
         [](const Params &p) { return integer(p.dModel - concatColumns(p)); }},
        {u"sqrt_d"_s, u"√d"_s, [](const Params &p) { return real(std::sqrt(d(p))); }},
        {u"inv_sqrt_d"_s, u"d^(−1/2)"_s, [](const Params &p) { return real(1.0 / std::sqrt(d(p))); }},
        {u"seq_len"_s, u"the tokens of the sequence; rows from seq_len on are padding"_s,
         [](const Params &p) { return integer(p.sequenceLength()); }},
        {u"padding_rows"_s, u"L − seq_len: the rows after the sequence"_s,
         [](const Params &p) {
             const std::int64_t rows = p.maxLen - p.sequenceLength();
             return rows > 0 ? integer(rows) : none(u"every row is a token: seq_len is L"_s);
         }},
        {u"special"_s, u"the rows of the special tokens ([CLS], [SEP]) within the sequence"_s,
         [](const Params &p) {
             return p.specialRows().empty() ? none(u"no row is special"_s)
                                            : Number {double(p.specialRows().size()), specialList(p), {}, false};
         }},
        {u"special_rows"_s, u"how many rows are special"_s,
         [](const Params &p) { return integer(std::int64_t(p.specialRows().size())); }},
        {u"keep"_s, u"1 − p: the probability that a cell is kept"_s,
         [](const Params &p) { return real(1.0 - p.dropout); }},
        {u"keep_factor"_s, u"1/(1 − p): the factor of the kept cells"_s, keepFactor},
        {u"cells"_s, u"L·d: the cells of X"_s, [](const Params &p) { return count(cells(p)); }},
        {u"dropped_mean"_s, u"p·L·d: the cells dropout zeroes, on average"_s,
         [](const Params &p) { return real(p.dropout * cells(p)); }},
        {u"dropped_std"_s, u"√(L·d·p(1 − p)): its standard deviation (binomial)"_s,
         [](const Params &p) { return real(std::sqrt(cells(p) * p.dropout * (1.0 - p.dropout))); }},
        {u"dropped_fraction_std"_s, u"√(p(1 − p)/(L·d)): the standard deviation of the fraction dropped"_s,
         [](const Params &p) { return real(std::sqrt(p.dropout * (1.0 - p.dropout) / cells(p))); }},
        {u"pe_dropped_mean"_s, u"p·k: the PE cells of one row dropout on X zeroes, on average"_s,
         [](const Params &p) { return real(p.dropout * double(p.peColumns())); }},
        {u"pe_dropped_std"_s, u"√(k·p(1 − p))"_s,
         [](const Params &p) { return real(std::sqrt(double(p.peColumns()) * p.dropout * (1.0 - p.dropout))); }},
        {u"row_dropped_mean"_s, u"p·d: the cells of one row dropout zeroes, on average"_s,
         [](const Params &p) { return real(p.dropout * d(p)); }},
        {u"row_dropped_std"_s, u"√(d·p(1 − p))"_s,
         [](const Params &p) { return real(std::sqrt(d(p) * p.dropout * (1.0 - p.dropout))); }},
        {u"row_intact"_s, u"(1 − p)^d: the chance that a row loses none of its d cells"_s,
         [](const Params &p) { return real(std::pow(1.0 - p.dropout, d(p))); }},
        {u"special_cells"_s, u"the cells of the special rows: their count times d"_s,
         [](const Params &p) { return count(d(p) * double(p.specialRows().size())); }},
        {u"special_dropped_mean"_s, u"p·d per special row, times the special rows: their cells zeroed, on average"_s,
         [](const Params &p) { return real(p.dropout * d(p) * double(p.specialRows().size())); }},
        {u"special_dropped"_s, u"the cells of the special rows this seed's mask zeroes under dropout on the sum"_s,
         specialDropped},
        {u"dropout_note"_s, u"a sentence on what dropout does at these parameters"_s,
         [](const Params &p) { return word(dropoutNote(p)); }},
        {u"pe_norm_sq"_s, u"||PE_p||² = k/2"_s,
         [](const Params &p) { return peNormSquared(p) ? real(*peNormSquared(p)) : none(noClosedNorm(p)); }},
        {u"pe_norm"_s, u"||PE_p|| = √(k/2)"_s,
         [](const Params &p) { return peNormSquared(p) ? real(std::sqrt(*peNormSquared(p))) : none(noClosedNorm(p)); }},
        {u"emb_norm_sq"_s, u"E||s·E_p||² = s²σ²d_e"_s,
         [](const Params &p) { return embeddingNormSquared(p) ? real(*embeddingNormSquared(p)) : none(kLoaded); }},
        {u"emb_norm"_s, u"√(s²σ²d_e)"_s,
         [](const Params &p) {
             return embeddingNormSquared(p) ? real(std::sqrt(*embeddingNormSquared(p))) : none(kLoaded);
         }},
        {u"ratio"_s, u"||s·E_p|| / ||PE_p|| = √(s²σ²d_e / (k/2))"_s,
         [](const Params &p) { return toPe(p, embeddingNormSquared(p)); }},
        {u"ratio_1_1"_s, u"the ratio at s = 1, σ = 1: √2"_s,
         [](const Params &p) { return gridRatio(p, false, false); }},
        {u"ratio_sqrtd_1"_s, u"the ratio at s = √d, σ = 1: √(2d)"_s,
         [](const Params &p) { return gridRatio(p, true, false); }},
        {u"ratio_1_invsqrtd"_s, u"the ratio at s = 1, σ = d^(−1/2): √(2/d)"_s,
         [](const Params &p) { return gridRatio(p, false, true); }},
        {u"ratio_sqrtd_invsqrtd"_s, u"the ratio at s = √d, σ = d^(−1/2): √2"_s,
         [](const Params &p) { return gridRatio(p, true, true); }},
        {u"content_dominates"_s, u"a condition: s·σ exceeds 1/√2, the root mean square of a sin/cos column"_s,
         [](const Params &p) {
             return !sigma(p) ? none(kLoaded)
                              : condition(p.scale() * *sigma(p) > std::sqrt(0.5),
                                          u"s·σ is at most 1/√2, a PE column's root mean square"_s);
         }},
        // Which term Y's colours show (dropout-on-sum): the one at least 4 times the other's norm;
        // it said "the modes look alike here" of Transformer base's 32 and of fairseq's 1.41 alike.
        {u"embedding_dominates"_s, u"a condition: ‖s·E_p‖ / ‖PE_p‖ is at least 4"_s,
         [](const Params &p) {
             const Number r = toPe(p, embeddingNormSquared(p));
             return !r.value ? r : condition(*r.value >= 4.0, u"‖s·E_p‖ is less than 4 times ‖PE_p‖"_s);
         }},
        {u"pe_dominates"_s, u"a condition: ‖s·E_p‖ / ‖PE_p‖ is at most 1/4"_s,
         [](const Params &p) {
             const Number r = toPe(p, embeddingNormSquared(p));
             return !r.value ? r : condition(*r.value <= 0.25, u"‖PE_p‖ is less than 4 times ‖s·E_p‖"_s);
         }},
        {u"scale_sqrt"_s, u"a condition: s = √d"_s,
         [](const Params &p) { return condition(p.scaleKind == ScaleKind::Sqrt, u"s is not √d"_s); }},
        {u"init_keras"_s, u"a condition: the embeddings start as Keras' Embedding draws them, U(−0.05, 0.05)"_s,
         [](const Params &p) {
             return condition(!p.embeddings && p.init == InitKind::KerasUniform, u"another initialisation"_s);
         }},
        {u"equal_d"_s, u"1/(2σ²): the d where ‖√d·E‖ = ‖PE‖ for a σ that does not shrink with d (sum)"_s,
         [](const Params &p) {
             if (!sigma(p) || p.init == InitKind::ScaledNormal || p.concatenates())
                 return none(u"σ shrinks with d, or the embeddings are loaded"_s);
             const double d = 1.0 / (2.0 * *sigma(p) * *sigma(p));
             return d > 1.0 ? real(d) : none(u"the embedding is the larger at every d"_s);
         }},
        {u"emb_std"_s, u"s·σ: the spread of every column of s·E"_s,
         [](const Params &p) { return sigma(p) ? real(p.scale() * *sigma(p)) : none(kLoaded); }},
        {u"last_position"_s, u"L − 1"_s, [](const Params &p) { return integer(p.maxLen - 1); }},
        {u"recovered"_s,
         u"positions q whose nearest PE row to the PE's part of Y_q, M ⊙ PE_q / (1 − p), is PE_q, at the current p"_s,
         [](const Params &p) { return recovered(p, p.training ? p.dropout : 0.0); }},
        {u"recovered_p50"_s, u"the same at p = 0.5"_s, [](const Params &p) { return recovered(p, 0.5); }},
        {u"recovered_p90"_s, u"the same at p = 0.9"_s, [](const Params &p) { return recovered(p, 0.9); }},
        {u"cos_e_pe"_s, u"the mean |cos(s·E_q, PE_q)| over the first cos_e_pe_rows positions, this seed"_s,
         embeddingPeCosine},
        {u"cos_e_pe_rows"_s, u"the positions cos_e_pe is taken over: all of L up to 4096, the first 4096 past it"_s,
         [](const Params &p) { return integer(cosineRows(p)); }},
        {u"cos_random"_s, u"√(2/(πd)): the mean |cos| of two random directions in d dimensions"_s,
         [](const Params &p) { return real(std::sqrt(2.0 / (std::numbers::pi * d(p)))); }},
    };
    return list + wordEntries() + familiesEntries() + familyConditions() + dropoutConditions() + scaleConditions();
}

} // namespace posenc::SharedLessonNumbers
