// M-RoPE's ids read by their own structure, without a prompt. The layout rules are
// huggingface/transformers' get_rope_index: models/qwen2_vl/modeling_qwen2_vl.py (text at
// arange(text_len) + st_idx on the three axes, a grid at stack([t_index, h_index, w_index]) +
// text_len + st_idx, st_idx = llm_pos_ids_list[-1].max() + 1), models/qwen2_5_vl/
// modeling_qwen2_5_vl.py (t_index = (arange(T) * second_per_grid_t * tokens_per_second).long()) and
// transformers 5.x's get_vision_position_ids (the next text at the block's start + max(h, w)).
#include "MropeIdsStructure.h"

#include "core/CountWords.h"
#include "core/NumberText.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::MropeIdsStructure {

namespace {

using Ids = std::array<std::int64_t, 3>;

struct Grid
{
    std::int64_t column = 0, start = 0, frames = 1, h = 1, w = 1;
    std::vector<std::int64_t> offsets; // each frame's t less the start
    std::int64_t tokens() const { return frames * h * w; }
    std::int64_t largest() const { return start + std::max({offsets.back(), h - 1, w - 1}); }
};

struct Row
{
    std::int64_t padding = 0, real = 0;
    std::int64_t leftPadding = 0; // of `padding`, the columns before the first real token
    QStringList prompt; // text:N, video:TxHxW (in patches at merge 2)
    // Each span as --prompt takes it: text (frames 0) with its tokens in h, or a grid's frames and
    // merged h, w; and whether every video's t advances by 1 a grid.
    struct Span
    {
        std::int64_t frames = 0, h = 0, w = 0;
        std::vector<std::int64_t> offsets; // a grid's frames' t less its start
    };
    std::vector<Span> spans;
    bool unitSteps = true;
    QStringList steps; // each video's t step
    bool v4 = false, v5 = false; // a block's next text at largest + 1, at start + max(h, w)
    QString problem; // the first id no get_rope_index gives, in words
    bool tokenCount = false; // the text after a block at the token count
};

class Reader
{
public:
    Reader(const RowMatrixXf &ids, std::int64_t rows, std::int64_t b)
        : m_ids(ids)
        , m_rows(rows)
        , m_b(b)
    { }

    Ids at(std::int64_t c) const
    {
        Ids v {};
        for (int a = 0; a < 3; ++a) {
            const double x = m_ids(a * m_rows + m_b, c);
            v[std::size_t(a)] = std::isfinite(x) ? std::llround(x) : std::int64_t(-1) << 40;
        }
        return v;
    }
    std::int64_t columns() const { return m_ids.cols(); }
    bool gridAt(std::int64_t c, const Grid &g, std::int64_t offset) const
    {
        for (std::int64_t i = 0; i < g.h; ++i)
            for (std::int64_t j = 0; j < g.w; ++j)
                if (c + i * g.w + j >= columns()
                    || at(c + i * g.w + j) != Ids {g.start + offset, g.start + i, g.start + j})
                    return false;
        return true;
    }
    // The grid from column c, whose first token is (s, s, s) and whose next keeps t at s.
    Grid grid(std::int64_t c) const
    {
        Grid g;
        g.column = c;
        g.start = at(c)[0];
        const std::int64_t s = g.start;
        g.w = 0;
        while (c + g.w < columns() && at(c + g.w) == Ids {s, s, s + g.w})
            ++g.w;
        g.h = 1;
        while (gridAt(c, Grid {c, s, 1, g.h + 1, g.w, {}}, 0))
            ++g.h;
        g.offsets = {0};
        for (;;) {
            const std::int64_t next = c + std::int64_t(g.offsets.size()) * g.h * g.w;
            if (next >= columns())
                break;
            const Ids first = at(next);
            const std::int64_t offset = first[0] - s;
            if (first[1] != s || first[2] != s || offset < g.offsets.back() || !gridAt(next, g, offset))
                break;
            g.offsets.push_back(offset);
        }
        g.frames = std::int64_t(g.offsets.size());
        return g;
    }

    // Right padding: 1s from column c > 0 to the row's end.
    bool paddedFrom(std::int64_t c) const
    {
        bool padded = c > 0;
        for (std::int64_t k = c; k < columns() && padded; ++k)
            padded = at(k) == Ids {1, 1, 1};
        return padded;
    }
    Row read() const;

private:
    const RowMatrixXf &m_ids;
    std::int64_t m_rows, m_b;
};

// Which rule a video's t offsets follow: one step d a grid is Qwen2-VL's grid index (d = 1) or
// Qwen2.5-VL's trunc(k · second_per_grid · tokens_per_second) at a product d.
QString stepWords(const std::vector<std::int64_t> &offsets)
{
    const std::int64_t d = offsets.size() > 1 ? offsets[1] : 0;
    for (std::size_t k = 0; k < offsets.size(); ++k)
        if (offsets[k] != std::int64_t(k) * d)
            return u" (Qwen2.5-VL's trunc(k · second_per_grid · tokens_per_second) at a fractional product)"_s;
    if (d == 1)
        return u" (Qwen2-VL's grid index, or Qwen2.5-VL's second_per_grid · tokens_per_second = 1)"_s;
    return u" (Qwen2.5-VL's second_per_grid · tokens_per_second = %1, e.g. second_per_grid %2 at tokens_per_second 2; "
           "not Qwen2-VL's grid index)"_s.arg(d)
               .arg(double(d) / 2.0);
}

QString offsetsText(const std::vector<std::int64_t> &offsets)
{
    QStringList out;
    for (const std::int64_t o : offsets)
        out.append(QString::number(o));
    return out.join(u", "_s);
}

// Whether second_per_grid `s` gives a video's t offsets under Qwen2.5-VL's rule in either era, as
// transformers computes it in float32: 4.x's (k · s) · tokens_per_second, 5.x's k · (tokens_per_second · s),
// each truncated (MropeLayout's qwen25OffsetV4 and qwen25OffsetV5).
bool givesOffsets(const std::vector<std::int64_t> &offsets, double s, double tps)
{
    for (std::size_t k = 0; k < offsets.size(); ++k) {
        const float v4 = static_cast<float>(k) * static_cast<float>(s) * static_cast<float>(tps);
        const float v5 = static_cast<float>(k) * (static_cast<float>(tps) * static_cast<float>(s));
        if (std::int64_t(std::trunc(v4)) != offsets[k] || std::int64_t(std::trunc(v5)) != offsets[k])
            return false;
    }
    return true;
}

// The shortest second_per_grid (fewest decimals, then smallest) whose Qwen2.5-VL product gives the
// offsets, trunc(k · second_per_grid · tokens_per_second) = offsets[k]: from the least product
// every k allows (max offsets[k] / k); nothing where none does.
std::optional<double> secondPerGridOf(const std::vector<std::int64_t> &offsets, double tps)
{
    double least = 0.0;
    for (std::size_t k = 1; k < offsets.size(); ++k)
        least = std::max(least, double(offsets[k]) / double(k));
    for (int digits = 0; digits <= 6; ++digits) {
        const double scale = std::pow(10.0, digits);
        const double s = std::ceil(least / tps * scale - 1e-9) / scale;
        if (givesOffsets(offsets, s, tps))
            return s;
    }
    return std::nullopt;
}

QString idsText(const Ids &v)
{
    return u"(%1, %2, %3)"_s.arg(v[0]).arg(v[1]).arg(v[2]);
}

Row Reader::read() const
{
    Row row;
    std::int64_t c = 0;
    // transformers fills the padding's ids with 1: a run of them before a row's first 0 is left padding.
    while (c < columns() && at(c) == Ids {1, 1, 1})
        ++c;
    if (c > 0 && c < columns() && at(c) == Ids {0, 0, 0}) {
        row.padding = c;
        row.leftPadding = c;
    } else
        c = 0;
    std::int64_t next = 0, text = 0;
    std::optional<Grid> last;
    const auto flushText = [&] {
        if (text > 0) {
            row.prompt.append(u"text:%1"_s.arg(text));
            row.spans.push_back({0, text, 0, {}});
        }
        text = 0;
    };
    while (c < columns()) {
        const Ids v = at(c);
        const bool vision = v[0] == v[1] && v[1] == v[2] && c + 1 < columns() && at(c + 1)[0] == v[0]
            && at(c + 1) != Ids {v[0] + 1, v[0] + 1, v[0] + 1};
        const std::int64_t id = v[0];
        if (last) {
            // The first id after a block: get_rope_index's rule of either era, or another.
            const std::int64_t v4 = last->largest() + 1, v5 = last->start + std::max(last->h, last->w);
            if (id == v4 || id == v5) {
                row.v4 = row.v4 || (id == v4 && v4 != v5);
                row.v5 = row.v5 || (id == v5 && v4 != v5);
                next = id;
            } else if (paddedFrom(c)) {
                row.padding = columns() - c;
                break;
            } else {
                row.tokenCount = id == last->start + last->tokens() && v[0] == v[1] && v[1] == v[2];
                row.problem = u"column %1's ids %2 after the vision block at %3: get_rope_index resumes at its "
                              "largest id + 1 = %4 (4.x) or its start + max(h, w) = %5 (5.x)%6"_s.arg(c)
                                  .arg(idsText(v),
                                       CountWords::range(last->column, last->column + last->tokens() - 1, u"column"_s,
                                                         {}, u"-"_s))
                                  .arg(v4)
                                  .arg(v5)
                                  .arg(row.tokenCount ? u"; %1 is the block's start + its %2 tokens, the 1-D token "
                                                        "count (the class mrope-text-resume)"_s.arg(id)
                                                            .arg(last->tokens())
                                                      : QString());
                return row;
            }
            last.reset();
        }
        if (vision) {
            if (id != next) {
                row.problem
                    = u"column %1: a vision block starting at %2 where the ids before give %3"_s.arg(c).arg(id).arg(
                        next);
                return row;
            }
            flushText();
            const Grid g = grid(c);
            const bool image = g.frames == 1;
            row.prompt.append(
                u"%1:%2x%3x%4"_s.arg(image ? u"image"_s : u"video"_s).arg(g.frames).arg(2 * g.h).arg(2 * g.w));
            row.spans.push_back({g.frames, g.h, g.w, g.offsets});
            for (std::size_t k = 0; k < g.offsets.size(); ++k)
                row.unitSteps = row.unitSteps && g.offsets[k] == std::int64_t(k);
            if (!image) {
                QStringList offsets;
                for (const std::int64_t o : g.offsets)
                    offsets.append(QString::number(o));
                row.steps.append(u"t at the start + %1 over its %2 grids%3"_s.arg(offsets.join(u", "_s))
                                     .arg(g.frames)
                                     .arg(stepWords(g.offsets)));
            }
            row.real += g.tokens();
            c += g.tokens();
            last = g;
            continue;
        }
        if (v == Ids {next, next, next}) {
            ++text;
            ++next;
            ++row.real;
            ++c;
            continue;
        }
        if (paddedFrom(c)) {
            row.padding = columns() - c;
            break;
        }
        row.problem = next == 0 && c == row.padding
            ? u"column %1's ids %2: get_rope_index starts every prompt at 0 on all three axes"_s.arg(c).arg(idsText(v))
            : u"column %1's ids %2 where text at %3 (t = h = w, one more than the token before) or a vision block "
              "from %3 was to follow"_s.arg(c)
                  .arg(idsText(v))
                  .arg(next);
        return row;
    }
    flushText();
    return row;
}

// Whether `ids` read as a prompt with a vision block, no padding and nothing no prompt gives.
bool laysOutVision(const RowMatrixXf &ids)
{
    const Row row = Reader(ids, 1, 0).read();
    return row.problem.isEmpty() && row.padding == 0
        && std::any_of(row.spans.begin(), row.spans.end(), [](const Row::Span &s) { return s.frames > 0; });
}

// Ids of a prompt that a known slip made no prompt's, the slip in words (empty: none found): the
// axes' rows in another order than get_rope_index's stack (t, h, w), or left padding filled with 0
// where transformers fills it with 1 (position_ids = torch.ones(...), the mask's tokens alone set),
// which reads as the prompt's first token repeated.
QString slipOf(const RowMatrixXf &ids)
{
    static const std::array<QString, 3> names {u"t"_s, u"h"_s, u"w"_s};
    static const std::array<std::array<int, 3>, 5> orders {{{0, 2, 1}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}}};
    std::int64_t zeros = 0;
    while (zeros < ids.cols() && ids(0, zeros) == 0.0f && ids(1, zeros) == 0.0f && ids(2, zeros) == 0.0f)
        ++zeros;
    if (zeros >= 2) {
        const RowMatrixXf rest = ids.rightCols(ids.cols() - (zeros - 1));
        const Row row = Reader(rest, 1, 0).read();
        if (row.problem.isEmpty() && row.padding == 0)
            return u"their first %1 columns hold ids 0 before the first token, itself at 0: left padding filled "
                   "with 0, where get_rope_index fills it with 1 (position_ids = torch.ones(...), the attention "
                   "mask's tokens alone set); the columns after it lay out %2"_s.arg(zeros - 1)
                       .arg(row.prompt.join(u','));
    }
    for (const auto &order : orders) {
        RowMatrixXf moved(3, ids.cols());
        for (int a = 0; a < 3; ++a)
            moved.row(a) = ids.row(order[std::size_t(a)]);
        if (!laysOutVision(moved))
            continue;
        QStringList held;
        for (std::size_t a = 0; a < 3; ++a) {
            if (order[a] != int(a))
                held.append(u"row %1 holds %2's ids"_s.arg(order[a]).arg(names[a]));
        }
        return u"their rows hold the axes in another order than get_rope_index's stack (t, h, w): %1 (the "
               "axes exchanged when the ids were stacked or read)"_s.arg(held.join(u", "_s));
    }
    return {};
}

} // namespace

ReadPrompt promptOf(const RowMatrixXf &ids, std::int64_t merge, std::optional<double> tokensPerSecond)
{
    const Row row = Reader(ids, 1, 0).read();
    ReadPrompt read;
    read.v5 = row.v5;
    // Under Qwen2.5-VL's rule every video's t steps are its second_per_grid's, written with it.
    std::vector<std::optional<double>> seconds;
    for (const Row::Span &span : row.spans) {
        seconds.push_back(span.frames > 1 && tokensPerSecond ? secondPerGridOf(span.offsets, *tokensPerSecond)
                                                             : std::nullopt);
        if (span.frames > 1 && tokensPerSecond && !seconds.back() && read.problem.isEmpty())
            read.problem
                = u"a video's t ids (the start + %1) are trunc(k · second_per_grid · tokens_per_second %2) "
                  "at no second_per_grid"_s.arg(offsetsText(span.offsets), NumberText::exact(*tokensPerSecond));
    }
    read.leftPadding = row.leftPadding;
    // A slip that reads as something else (padding at 0 as a video's repeated first grid) is named.
    if (const QString slip = ids.rows() == 3 ? slipOf(ids) : QString(); !slip.isEmpty()
        && (!row.problem.isEmpty() || (row.padding == 0 && !row.spans.empty() && row.spans.front().frames > 1))) {
        read.problem = slip;
        read.padded = slip.contains(u"padding"_s);
        return read;
    }
    if (!row.problem.isEmpty()) {
        read.problem = u"they are not get_rope_index's for any prompt: %1"_s.arg(row.problem);
    } else if (row.padding > row.leftPadding) {
        const std::int64_t right = row.padding - row.leftPadding;
        read.padded = true;
        read.problem = u"their last %1 columns are right padding (ids 1, transformers' fill), whose rows a prompt "
                       "does not lay out: check the table's first %2 rows, or the ids alone"_s.arg(right)
                           .arg(ids.cols() - right);
    } else if (!row.unitSteps && !tokensPerSecond) {
        read.problem
            = u"a video's t advances by other than 1 a grid (%1): Qwen2.5-VL's time, which a declared "
              "Qwen2.5-VL (--vision-positions qwen2.5-vl, its preset or config) reads"_s.arg(row.steps.join(u"; "_s));
    }
    if (!read.problem.isEmpty())
        return read;
    QStringList spans;
    for (std::size_t i = 0; i < row.spans.size(); ++i) {
        const Row::Span &span = row.spans[i];
        spans.append(span.frames == 0 ? u"text:%1"_s.arg(span.h)
                                      : u"%1:%2x%3x%4%5"_s.arg(span.frames == 1 ? u"image"_s : u"video"_s)
                                            .arg(span.frames)
                                            .arg(merge * span.h)
                                            .arg(merge * span.w)
                                            .arg(seconds[i] ? u"@"_s + NumberText::exact(*seconds[i]) : QString()));
    }
    read.prompt = spans.join(u',');
    return read;
}

PositionIdsCheck::Report read(const RowMatrixXf &ids, std::int64_t rows)
{
    PositionIdsCheck::Report report;
    report.rows = rows;
    report.columns = ids.cols();
    report.axes = 3;
    report.reference = u"get_rope_index's layout read from the ids themselves, no --prompt declared (models/qwen2_vl/"
                       "modeling_qwen2_vl.py and qwen2_5_vl: text t = h = w one more a token, each image or video a "
                       "(t, h, w) grid from its start, w fastest, the text after it at its largest id + 1, or at "
                       "start + max(h, w) in transformers 5.x)"_s;
    QStringList read, problems;
    bool v4 = false, v5 = false, vision = false, tokenCount = false;
    for (std::int64_t b = 0; b < rows; ++b) {
        const Row row = Reader(ids, rows, b).read();
        // A row read to a problem: every column after its left padding counts, the tokens past the
        // problem unread (no padding was found before it ended the reading).
        report.realTokens += row.problem.isEmpty() ? row.real : ids.cols() - row.padding;
        v4 = v4 || row.v4;
        v5 = v5 || row.v5;
        tokenCount = tokenCount || row.tokenCount;
        vision = vision || std::any_of(row.prompt.begin(), row.prompt.end(), [](const QString &p) {
                     return !p.startsWith(u"text"_s);
                 });
        if (!row.problem.isEmpty()) {
            problems.append(u"row %1: %2"_s.arg(b).arg(row.problem));
            continue;
        }
        QString words = u"row %1: %2"_s.arg(b).arg(row.prompt.join(u','));
        if (row.padding > 0)
            words += u" (%1 columns of padding, ids 1)"_s.arg(row.padding);
        if (!row.steps.isEmpty())
            words += u"; the video's %1"_s.arg(row.steps.join(u", "_s));
        read.append(words);
    }
    if (!problems.isEmpty() || (v4 && v5)) {
        report.verdict = PositionIdsCheck::Verdict::Unknown;
        report.detail = u"the ids are not get_rope_index's for any prompt: %1"_s.arg(
            problems.isEmpty() ? u"the text after one block follows transformers 4.x's rule, after another 5.x's"_s
                               : problems.join(u"; "_s));
        if (tokenCount)
            report.notes.append(u"text that resumes at the token count after an image or video is 1-D positions' "
                                "rule, not get_rope_index's; declare the prompt (--prompt) to name it"_s);
        report.notes.append(u"a declared prompt (--prompt, --vision-positions) compares every id with the "
                            "reference's and names the mistake"_s);
        return report;
    }
    // Every token text: get_rope_index's ids of a text prompt, and as much 1-D positions over image
    // and video tokens (Liger-Kernel#276); the ids alone cannot tell which, so no `correct` without
    // the prompt (the verdict rule: correct only against a named reference).
    if (!vision) {
        report.verdict = PositionIdsCheck::Verdict::Unknown;
        report.detail = u"every token reads as text (t = h = w, one more a token): get_rope_index's ids for a text "
                        "prompt (%1), and equally 1-D positions laid over image or video tokens, which "
                        "get_rope_index never gives (mrope-1d-positions, linkedin/Liger-Kernel#276); the ids alone "
                        "cannot tell them apart: --prompt text:N declares a text prompt (correct), --prompt with "
                        "the rows' images or videos names the mistake"_s.arg(read.join(u"; "_s));
        return report;
    }
    report.verdict = PositionIdsCheck::Verdict::Correct;
    report.detail
        = u"every id is get_rope_index's for the prompt read from them (grids in patches at spatial merge "
          "2): %1%2"_s.arg(read.join(u"; "_s),
                           v5 ? u"; the text after a block at its start + max(h, w), transformers 5.x's"_s : QString());
    report.notes.append(u"a declared prompt (--prompt, --vision-positions, --batch) would check the grids against the "
                        "processor's, a video's t step against second_per_grid · tokens_per_second (Qwen2-VL's "
                        "step is 1) and the padding"_s);
    return report;
}

} // namespace posenc::MropeIdsStructure
