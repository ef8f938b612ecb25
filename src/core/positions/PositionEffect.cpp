#include "PositionEffect.h"

#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A rotation of a token by RoPE's frequencies and scaling at one id: RoPE's, and M-RoPE's, which
// reads RoPE's rows (each pair by its axis's id).
bool rotary(const FamilySpec &family)
{
    return family.kind == FamilyKind::Rotation
        && (family.encoding == Encoding::Rope || family.borrowsRow(Encoding::Rope, u"rope-type"_s));
}

// Whether it reads the row `key`, its own or another family's.
bool readsRow(const FamilySpec &family, const QString &key)
{
    const auto holds = [&](const QList<ParamSpec> &list) {
        return std::any_of(list.cbegin(), list.cend(), [&](const ParamSpec &s) { return s.key == key; });
    };
    if (family.rows && holds(family.rows()))
        return true;
    return std::any_of(family.borrows.cbegin(), family.borrows.cend(), [&](const BorrowedRows &b) {
        return b.keys.contains(key) || (b.keys.isEmpty() && holds(Families::spec(b.family).rows()));
    });
}

// The kept scores of the latest engine's frequencies: an engine of other ids or another batch at
// the same frequencies (a change of --ids-choice or of the rows' lengths) starts from the scores the
// one before it computed, the same bits, rather than from none: their cosines were most of a
// position-effect preview's time. Only the latest engine's (a change of frequencies starts anew),
// at most two sets of 2 MiB each.
struct SharedScores
{
    std::vector<double> inv;
    std::shared_ptr<const LazyScores> byDistance, byQuery;
};

std::mutex g_sharedMutex;
std::vector<SharedScores> g_shared; // the latest engine's

SharedScores sharedScores(const std::vector<double> &inv, std::int64_t size, const std::vector<SharedScores> &before)
{
    for (const SharedScores &s : before) {
        if (s.inv == inv)
            return s;
    }
    return {inv, std::make_shared<const LazyScores>(size), std::make_shared<const LazyScores>(size)};
}

} // namespace

bool PositionEffect::reads(const FamilySpec &family)
{
    // A family that reads a patch grid (2-D RoPE, 2-D sin-cos) places a token by its row and its
    // column, not by one id, though the 2-D sin-cos table is stored by the patch's index.
    if (readsRow(family, u"grid"_s))
        return false;
    return rotary(family) || family.score || family.hasPositionTerm() || !family.placesPosition();
}

PositionEffect::PositionEffect(const Engine &engine)
    : m_params(engine.params())
    , m_ids(engine.source<BatchIds>())
    , m_choice(engine.params().batch.ids)
{
    const FamilySpec &family = Families::spec(m_params.encoding);
    if (m_ids.problem() || !reads(family))
        return;
    // A rotation of one id a token by RoPE's frequencies and scaling: RoPE's, and M-RoPE's, which
    // reads RoPE's rows (each pair by its axis's id).
    if (rotary(family)) {
        m_kind = ScoreKind::Rotary;
        // The frequencies at each choice's length, as the rotary embedding's dynamic update reads it.
        const auto at = [&](IdsChoice choice) {
            Params p = RopeFrequencies::underRope(m_params);
            p.maxLen = std::max<std::int64_t>(1, m_ids.maxId(choice) + 1);
            Rotary r;
            r.inv = RopeFrequencies::table(p).inv;
            for (const double w : r.inv)
                r.inv32.push_back(static_cast<float>(w));
            return r;
        };
        m_reference = at(IdsChoice::Reference);
        m_chosen = at(m_choice);
        m_axes = m_ids.pairAxes(m_params, std::int64_t(m_reference.inv.size()));
        if (std::all_of(m_axes.cbegin(), m_axes.cend(), [](int axis) { return axis == 0; })) {
            // Every pair reads the first axis's id: the scores are kept up to 2^18, past it computed
            // token by token (8 MiB at the most, taken where asked). Two choices at the same
            // frequencies share them, and so does the next engine at these frequencies.
            constexpr std::int64_t kKeptMost = std::int64_t(1) << 18;
            const std::lock_guard lock(g_sharedMutex);
            std::vector<SharedScores> latest = {sharedScores(m_reference.inv, kKeptMost, g_shared)};
            if (m_chosen.inv != m_reference.inv)
                latest.push_back(sharedScores(m_chosen.inv, kKeptMost, g_shared));
            m_reference.byDistance = latest.front().byDistance;
            m_reference.byQuery = latest.front().byQuery;
            m_chosen.byDistance = latest.back().byDistance;
            m_chosen.byQuery = latest.back().byQuery;
            g_shared = std::move(latest);
        }
    } else if (family.score) {
        m_kind = ScoreKind::Panel;
    } else if (family.hasPositionTerm()) {
        m_kind = ScoreKind::TermProduct;
    }
    if (family.hasPositionTerm() && m_params.peColumns() > 0) {
        // Rows for every id the choices give, where the family's table has them.
        Params wide = m_params;
        wide.maxLen = std::max({m_params.maxLen, m_ids.maxId(IdsChoice::Reference) + 1, m_ids.maxId(m_choice) + 1});
        const bool fits = wide.validate().isEmpty();
        m_term = std::make_unique<PositionTerm>(fits ? wide : m_params);
        m_termRows = fits ? wide.maxLen : m_params.maxLen;
    }
}

const QStringList &PositionEffect::columnNames()
{
    static const QStringList names = {u"real"_s,
                                      u"reference_id"_s,
                                      u"chosen_id"_s,
                                      u"score_reference"_s,
                                      u"score_chosen"_s,
                                      u"score_difference"_s,
                                      u"float32_difference"_s,
                                      u"term_difference"_s,
                                      u"temperature_ids"_s,
                                      u"temperature_cache"_s,
                                      u"chunk_ids"_s,
                                      u"chunk_cache"_s,
                                      u"temperature_reference"_s};
    return names;
}

QString PositionEffect::scoreWords() const
{
    switch (m_kind) {
    case ScoreKind::Rotary:
        return u"⟨q, R(Δ)q⟩/‖q‖², q all ones over the turned columns"_s;
    case ScoreKind::Panel:
        return Families::spec(m_params.encoding).score->name;
    case ScoreKind::TermProduct:
        return u"PE[q]·PE[k]"_s;
    case ScoreKind::None:
        break;
    }
    const FamilySpec &family = Families::spec(m_params.encoding);
    if (!family.placesPosition())
        return u"none (no position placed)"_s;
    if (!reads(family))
        return u"not drawn: %1 places a patch by its row and column, not by one id"_s.arg(family.heading);
    return u"not drawn: %1"_s.arg(m_ids.problem().value_or(u"the ids could not be formed"_s));
}

double PositionEffect::tokenCost() const
{
    const double pairs = double(std::max(m_reference.inv.size(), m_chosen.inv.size()));
    const double term = m_term ? double(m_term->columns()) : 0.0;
    return 4.0 * pairs + 3.0 * term + double(Columns);
}

double PositionEffect::temperature(double attnScale, std::int64_t floorScale, std::int64_t p)
{
    // log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1
    return std::log1p(std::floor(double(p + 1) / double(floorScale))) * attnScale + 1.0;
}

// The mean over the rotary pairs of cos(angle(q) - angle(k)), each pair's angle its axis's id times
// its frequency: exactly (the difference of the ids, then one product), or as float32 code
// computes each angle, fl(fl(p) * fl(w)).
double PositionEffect::rotaryScore(const Rotary &r, const std::int64_t *q, const std::int64_t *k, std::int64_t stride,
                                   std::int64_t keyStride, bool float32) const
{
    if (r.inv.empty())
        return 1.0;
    double sum = 0.0;
    for (std::size_t i = 0; i < r.inv.size(); ++i) {
        const std::int64_t qa = q[m_axes[i] * stride], ka = k[m_axes[i] * keyStride];
        if (float32) {
            const float a = static_cast<float>(qa) * r.inv32[i];
            const float b = static_cast<float>(ka) * r.inv32[i];
            sum += std::cos(double(a) - double(b));
        } else {
            sum += std::cos(double(qa - ka) * r.inv[i]);
        }
    }
    return sum / double(r.inv.size());
}

double PositionEffect::keptScore(const Rotary &r, const std::int64_t *q, const std::int64_t *k, std::int64_t stride,
                                 bool float32) const
{
    // The same arguments to rotaryScore as the token's own: double(q - k) of the exact angle, and
    // fl(0·w) = 0 of a key at id 0.
    const std::int64_t zero = 0;
    if (!float32 && r.byDistance && r.byDistance->covers(q[0] - k[0]))
        return r.byDistance->at(q[0] - k[0], [&](std::int64_t n) { return rotaryScore(r, &n, &zero, 1, 1, false); });
    if (float32 && r.byQuery && k[0] == 0 && r.byQuery->covers(q[0]))
        return r.byQuery->at(q[0], [&](std::int64_t n) { return rotaryScore(r, &n, &zero, 1, 1, true); });
    return rotaryScore(r, q, k, stride, 1, float32);
}

// The score of tokens [c0, c0 + count) of row b against their documents' first tokens under
// `choice`; `ids` receives the tokens' ids (axis-major).
void PositionEffect::scores(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, double *exact,
                            double *f32, std::vector<std::int64_t> &ids, std::vector<std::int64_t> &deltas,
                            const Reuse *reuse) const
{
    deltas.assign(std::size_t(count), std::numeric_limits<std::int64_t>::min());
    const int axes = m_ids.axes();
    ids.assign(std::size_t(axes * count), 0);
    m_ids.ids(choice, b, c0, count, ids.data());
    const BatchLayout &layout = m_ids.layout();
    const Rotary &rotary = choice == IdsChoice::Reference ? m_reference : m_chosen;
    const FamilySpec &family = Families::spec(m_params.encoding);
    std::int64_t keyColumn = -2;
    std::int64_t key[3] = {0, 0, 0};
    for (std::int64_t i = 0; i < count; ++i) {
        exact[i] = f32[i] = 0.0;
        const std::int64_t c = c0 + i;
        if (!layout.segmentAt(b, c).isReal())
            continue;
        const std::int64_t start = layout.documentStart(b, c);
        if (start != keyColumn) {
            keyColumn = start;
            m_ids.ids(choice, b, start, 1, key);
        }
        deltas[std::size_t(i)] = ids[std::size_t(i)] - key[0];
        switch (m_kind) {
        case ScoreKind::Rotary:
            // One id a token at the same frequencies: the same distance scores the same, exactly.
            if (reuse && (*reuse->deltas)[std::size_t(i)] == deltas[std::size_t(i)])
                exact[i] = reuse->exact[i];
            else
                exact[i] = keptScore(rotary, &ids[std::size_t(i)], key, count, false);
            f32[i] = keptScore(rotary, &ids[std::size_t(i)], key, count, true);
            break;
        case ScoreKind::Panel: {
            exact[i] = family.score->at(m_params, ids[std::size_t(i)], key[0]).value_or(0.0);
            break;
        }
        case ScoreKind::TermProduct:
        case ScoreKind::None:
            break;
        }
    }
}

bool PositionEffect::termRow(std::int64_t id, std::int64_t columns, float *out) const
{
    if (id < 0 || id >= m_termRows)
        return false;
    Eigen::Map<RowMatrixXf> row(out, 1, columns);
    m_term->fill({id, 1, 0, columns}, row);
    return true;
}

// ‖PE[chosen] − PE[reference]‖ and, for a term without a panel, PE[q]·PE[k] against the document's
// first token under each choice; NaN where the table has no row for an id.
void PositionEffect::termColumns(std::int64_t b, std::int64_t c0, std::int64_t count, const std::int64_t *reference,
                                 const std::int64_t *chosen, double *products, double *distances) const
{
    const BatchLayout &layout = m_ids.layout();
    const auto columns = std::size_t(m_term->columns());
    std::vector<float> q[2] = {std::vector<float>(columns), std::vector<float>(columns)};
    std::vector<float> k[2] = {std::vector<float>(columns), std::vector<float>(columns)};
    bool keyKnown[2] = {false, false};
    std::int64_t keyColumn = -2;
    const IdsChoice choices[2] = {IdsChoice::Reference, m_choice};
    for (std::int64_t i = 0; i < count; ++i) {
        products[i] = products[count + i] = distances[i] = 0.0;
        const std::int64_t c = c0 + i;
        if (!layout.segmentAt(b, c).isReal())
            continue;
        const bool known[2] = {termRow(reference[i], std::int64_t(columns), q[0].data()),
                               termRow(chosen[i], std::int64_t(columns), q[1].data())};
        double squares = 0.0;
        for (std::size_t j = 0; j < columns; ++j) {
            const double d = double(q[1][j]) - double(q[0][j]);
            squares += d * d;
        }
        distances[i] = known[0] && known[1] ? std::sqrt(squares) : std::nan("");
        if (m_kind != ScoreKind::TermProduct)
            continue;
        const std::int64_t start = layout.documentStart(b, c);
        if (start != keyColumn) {
            keyColumn = start;
            for (int x = 0; x < 2; ++x)
                keyKnown[x] = termRow(m_ids.id(choices[x], b, start), std::int64_t(columns), k[x].data());
        }
        for (int x = 0; x < 2; ++x) {
            double dot = 0.0;
            for (std::size_t j = 0; j < columns; ++j)
                dot += double(q[x][j]) * double(k[x][j]);
            products[x * count + i] = known[x] && keyKnown[x] ? dot : std::nan("");
        }
    }
}

void PositionEffect::values(std::int64_t b, std::int64_t c0, std::int64_t count, double *out) const
{
    const auto column = [&](int k) { return out + std::size_t(k) * std::size_t(count); };
    std::fill(out, out + std::size_t(Columns) * std::size_t(count), 0.0);
    if (m_ids.problem())
        return;
    std::vector<std::int64_t> reference, chosen, referenceDeltas, chosenDeltas;
    scores(IdsChoice::Reference, b, c0, count, column(ScoreReference), column(Float32Difference), reference,
           referenceDeltas, nullptr);
    std::vector<double> chosen32(static_cast<std::size_t>(count));
    const Reuse reuse {&referenceDeltas, column(ScoreReference)};
    const bool same = m_ids.axes() == 1 && m_reference.inv == m_chosen.inv;
    scores(m_choice, b, c0, count, column(ScoreChosen), chosen32.data(), chosen, chosenDeltas, same ? &reuse : nullptr);
    const BatchLayout &layout = m_ids.layout();
    std::int64_t leftPadding = 0;
    for (const BatchSegment &s : layout.row(b)) {
        if (s.isReal())
            break;
        leftPadding = s.end();
    }
    std::vector<double> products(static_cast<std::size_t>(2 * count)), distances(static_cast<std::size_t>(count));
    if (m_term)
        termColumns(b, c0, count, reference.data(), chosen.data(), products.data(), distances.data());
    const BatchParams &batch = m_params.batch;
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t c = c0 + i;
        const bool real = layout.segmentAt(b, c).isReal();
        column(Real)[i] = real ? 1.0 : 0.0;
        column(ReferenceId)[i] = double(reference[std::size_t(i)]);
        column(ChosenId)[i] = double(chosen[std::size_t(i)]);
        column(TemperatureIds)[i] = column(TemperatureCache)[i] = column(TemperatureReference)[i] = 1.0;
        if (!real) {
            column(Float32Difference)[i] = 0.0;
            continue;
        }
        if (m_kind == ScoreKind::TermProduct) {
            column(ScoreReference)[i] = products[std::size_t(i)];
            column(ScoreChosen)[i] = products[std::size_t(count + i)];
        }
        column(TermDifference)[i] = distances[std::size_t(i)];
        column(Float32Difference)[i] = chosen32[std::size_t(i)] - column(Float32Difference)[i];
        if (batch.attnScale) {
            column(TemperatureIds)[i] = temperature(*batch.attnScale, batch.floorScale, chosen[std::size_t(i)]);
            column(TemperatureCache)[i] = temperature(*batch.attnScale, batch.floorScale, c);
            column(TemperatureReference)[i]
                = temperature(*batch.attnScale, batch.floorScale, reference[std::size_t(i)]);
        }
        if (batch.chunk) {
            column(ChunkIds)[i] = double(chosen[std::size_t(i)] / *batch.chunk);
            column(ChunkCache)[i] = double((c - leftPadding) / *batch.chunk);
        }
    }
    for (std::int64_t i = 0; i < count; ++i)
        column(ScoreDifference)[i] = column(ScoreChosen)[i] - column(ScoreReference)[i];
}

} // namespace posenc
