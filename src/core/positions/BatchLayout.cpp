#include "BatchLayout.h"

#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamError.h"
#include "core/ParamTable.h"

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

BatchSegment padding(std::int64_t start, std::int64_t length)
{
    return {start, length, -1, false, 0};
}

BatchSegment real(std::int64_t start, std::int64_t length, std::int64_t document = 0)
{
    return {start, length, document, false, 0};
}

// A row's runs of a table read from a file as segments: a mask's 1s are real tokens, a document
// table's runs of one value its documents (a negative value padding).
std::vector<BatchSegment> tableRow(const BatchTable &table, std::int64_t b, bool documents)
{
    std::vector<BatchSegment> segments;
    std::int64_t document = 0;
    for (std::int64_t r = table.rowFirstRun[std::size_t(b)]; r < table.rowFirstRun[std::size_t(b + 1)]; ++r) {
        const BatchRun &run = table.runs[std::size_t(r)];
        const bool isReal = documents ? run.value >= 0 : run.value != 0;
        segments.push_back(isReal ? real(run.start, run.length, documents ? document++ : 0)
                                  : padding(run.start, run.length));
    }
    return segments;
}

} // namespace

namespace {

using Lengths = BatchLayout::Lengths;
using Side = BatchLayout::Side;
using Packed = std::vector<std::vector<std::int64_t>>;

// The last text parsed and what it gave, kept per thread: the window reads one batch's text many
// times a change (each row's check and tooltip, the views' layouts and default row), 64 lengths
// each at the benchmark's batch, and a text parses the same every time.
template<typename Result> Result lastParsed(const QString &text, Result (*parse)(const QString &))
{
    thread_local QString lastText;
    thread_local std::optional<Result> last;
    if (!last || text != lastText) {
        last = parse(text);
        lastText = text;
    }
    return *last;
}

std::variant<Lengths, QString> lengthsOf(const QString &text)
{
    const qsizetype colon = text.indexOf(u':');
    if (colon < 0)
        return u"no side: write left: or right: before the lengths"_s;
    const QString side = text.left(colon).trimmed();
    Lengths result;
    if (side == u"left"_s)
        result.side = Side::Left;
    else if (side == u"right"_s)
        result.side = Side::Right;
    else
        return u"unknown side %1"_s.arg(ParamError::quoted(side));
    const QStringList items = text.mid(colon + 1).split(u',');
    if (items.size() > BatchParams::kMaxRows)
        return u"%1 rows, more than %2"_s.arg(items.size()).arg(BatchParams::kMaxRows);
    for (const QString &item : items) {
        const auto n = ParamRows::parseInteger(item.trimmed());
        if (!n || *n < 1)
            return u"%1 is not a length of at least 1"_s.arg(ParamError::quoted(item.trimmed()));
        result.lengths.push_back(*n);
    }
    return result;
}

std::variant<Packed, QString> packedOf(const QString &text)
{
    std::vector<std::vector<std::int64_t>> rows;
    const QStringList rowTexts = text.split(u'/');
    if (rowTexts.size() > BatchParams::kMaxRows)
        return u"%1 rows, more than %2"_s.arg(rowTexts.size()).arg(BatchParams::kMaxRows);
    std::int64_t documents = 0;
    for (const QString &rowText : rowTexts) {
        std::vector<std::int64_t> row;
        const QStringList items = rowText.split(u',');
        documents += items.size();
        if (documents > BatchParams::kMaxDocuments)
            return u"more than %1 documents"_s.arg(BatchParams::kMaxDocuments);
        for (const QString &item : items) {
            const auto n = ParamRows::parseInteger(item.trimmed());
            if (!n || *n < 1)
                return u"%1 is not a document's length of at least 1"_s.arg(ParamError::quoted(item.trimmed()));
            row.push_back(*n);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace

std::variant<BatchLayout::Lengths, QString> BatchLayout::parseLengths(const QString &text)
{
    return lastParsed(text, lengthsOf);
}

std::variant<std::vector<std::vector<std::int64_t>>, QString> BatchLayout::parsePacked(const QString &text)
{
    return lastParsed(text, packedOf);
}

bool BatchLayout::attendsBothWays(const Params &params)
{
    const FamilySpec &family = Families::spec(params.encoding);
    return family.attendsBothWays ? family.attendsBothWays(params) : params.batch.attention == Attention::BothWays;
}

std::int64_t BatchLayout::farthestKey(const Params &params)
{
    std::int64_t farthest = std::max<std::int64_t>(0, params.maxLen - 1);
    if (params.batch.chunk)
        farthest = std::min(farthest, *params.batch.chunk - 1);
    if (params.batch.window && !attendsBothWays(params))
        farthest = std::min(farthest, *params.batch.window - 1);
    return std::max<std::int64_t>(0, farthest);
}

QString BatchLayout::farthestKeyWhy(const Params &params)
{
    const std::int64_t farthest = farthestKey(params);
    if (farthest >= params.maxLen - 1)
        return {};
    if (params.batch.chunk && *params.batch.chunk - 1 == farthest)
        return u"attend within chunks of %1 positions"_s.arg(NumberText::count(*params.batch.chunk));
    return u"attend within a sliding window of %1 positions"_s.arg(NumberText::count(*params.batch.window));
}

BatchLayout::BatchLayout(const Params &params)
    : m_cols(params.maxLen)
    , m_cache(params.batch.cache)
{
    const BatchParams &batch = params.batch;
    m_documents = !batch.packed.isEmpty() || batch.documents;
    m_twoDimensionalMask = m_documents && batch.mask;
    m_bothWays = attendsBothWays(params);
    m_byColumn = batch.positions == Positions::ByColumn;
    // Texts that do not parse (the rows' checks refuse them) lay out as no batch.
    const auto lengthsParsed = parseLengths(batch.lengths);
    const auto packedParsed = parsePacked(batch.packed);
    if (const auto *lengths = std::get_if<Lengths>(&lengthsParsed); lengths && !batch.lengths.isEmpty()) {
        // The prompts are padded to the prefill's columns; the decode steps after them are real.
        const std::int64_t width = m_cache > 0 ? m_cache : m_cols;
        for (const std::int64_t n : lengths->lengths) {
            std::vector<BatchSegment> segments;
            if (lengths->side == Side::Left) {
                if (n < width)
                    segments.push_back(padding(0, width - n));
                segments.push_back(real(std::max<std::int64_t>(0, width - n), std::min(n, width)));
            } else {
                segments.push_back(real(0, std::min(n, width)));
                if (n < width)
                    segments.push_back(padding(n, width - n));
            }
            if (width < m_cols)
                segments.push_back(real(width, m_cols - width));
            addRow(std::move(segments));
        }
    } else if (const auto *packed = std::get_if<0>(&packedParsed); packed && !batch.packed.isEmpty()) {
        for (const std::vector<std::int64_t> &lengths : *packed) {
            std::vector<BatchSegment> segments;
            std::int64_t at = 0;
            for (std::size_t d = 0; d < lengths.size() && at < m_cols; ++d) {
                segments.push_back(real(at, std::min(lengths[d], m_cols - at), std::int64_t(d)));
                at += segments.back().length;
            }
            if (at < m_cols)
                segments.push_back(padding(at, m_cols - at));
            addRow(std::move(segments));
        }
    } else if (const auto &table = batch.documents ? batch.documents : batch.mask; table && table->cols == m_cols) {
        for (std::int64_t b = 0; b < table->rows; ++b)
            addRow(tableRow(*table, b, bool(batch.documents)));
    }
    if (rows() == 0) {
        addRow({real(0, m_cols)});
    }
}

void BatchLayout::splitAtCache(std::vector<BatchSegment> &segments) const
{
    if (m_cache <= 0 || m_cache >= m_cols)
        return;
    std::vector<BatchSegment> split;
    for (const BatchSegment &s : segments) {
        if (s.start < m_cache && s.end() > m_cache) {
            BatchSegment before = s, after = s;
            before.length = m_cache - s.start;
            after.start = m_cache;
            after.length = s.end() - m_cache;
            split.push_back(before);
            split.push_back(after);
        } else {
            split.push_back(s);
        }
    }
    segments = std::move(split);
}

void BatchLayout::addRow(std::vector<BatchSegment> segments)
{
    splitAtCache(segments);
    std::int64_t before = 0;
    for (BatchSegment &s : segments) {
        s.decode = m_cache > 0 && s.start >= m_cache;
        s.realBefore = before;
        if (s.isReal())
            before += s.length;
        m_segments.push_back(s);
    }
    m_rowFirst.push_back(std::int64_t(m_segments.size()));
}

bool BatchLayout::blockMask(IdsChoice choice) const
{
    return m_documents && !m_twoDimensionalMask && choice != IdsChoice::PositionsNotRestarted
        && choice != IdsChoice::RestartedWithoutBlockMask;
}

std::span<const BatchSegment> BatchLayout::row(std::int64_t b) const
{
    const auto first = std::size_t(m_rowFirst[std::size_t(b)]);
    const auto last = std::size_t(m_rowFirst[std::size_t(b + 1)]);
    return std::span<const BatchSegment>(m_segments).subspan(first, last - first);
}

const BatchSegment &BatchLayout::segmentAt(std::int64_t b, std::int64_t c) const
{
    const auto segments = row(b);
    const auto found = std::upper_bound(segments.begin(), segments.end(), c,
                                        [](std::int64_t column, const BatchSegment &s) { return column < s.start; });
    return *(found - 1);
}

std::int64_t BatchLayout::realTokens(std::int64_t b) const
{
    const auto segments = row(b);
    const BatchSegment &last = segments.back();
    return last.realBefore + (last.isReal() ? last.length : 0);
}

std::int64_t BatchLayout::documentStart(std::int64_t b, std::int64_t c) const
{
    if (m_documents) {
        const BatchSegment &s = segmentAt(b, c);
        return s.isReal() ? s.start : -1;
    }
    for (const BatchSegment &s : row(b)) {
        if (s.isReal())
            return s.start;
    }
    return -1;
}

std::int64_t BatchLayout::offset(IdsChoice choice, const BatchSegment &s) const
{
    // The reference: a document's ids restart at 0 (the collator); otherwise the row's real
    // tokens before the token (generation's cumsum - 1).
    const std::int64_t reference = m_documents ? -s.start : s.realBefore - s.start;
    if (m_byColumn)
        return 0;
    switch (choice) {
    case IdsChoice::Reference:
    case IdsChoice::RestartedWithoutBlockMask:
        return reference;
    case IdsChoice::ArangeWithPadding:
        return 0;
    case IdsChoice::PositionsNotRestarted:
        return s.realBefore - s.start;
    case IdsChoice::CacheOffset:
        return s.decode ? -m_cache : reference;
    case IdsChoice::OffByOne:
        return reference + 1;
    }
    return reference;
}

std::int64_t BatchLayout::paddingId(IdsChoice choice, std::int64_t c) const
{
    return m_byColumn || choice == IdsChoice::ArangeWithPadding ? c : kPaddingId;
}

std::int64_t BatchLayout::id(IdsChoice choice, std::int64_t b, std::int64_t c) const
{
    const BatchSegment &s = segmentAt(b, c);
    if (!s.isReal())
        return paddingId(choice, c);
    return c + offset(choice, s);
}

void BatchLayout::ids(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const
{
    for (const BatchSegment &s : row(b)) {
        const std::int64_t from = std::max(c0, s.start), to = std::min(c0 + count, s.end());
        if (from >= to)
            continue;
        const std::int64_t shift = s.isReal() ? offset(choice, s) : 0;
        for (std::int64_t c = from; c < to; ++c) {
            if (s.isReal())
                out[c - c0] = c + shift;
            else
                out[c - c0] = paddingId(choice, c);
        }
    }
}

std::int64_t BatchLayout::maxId(IdsChoice choice) const
{
    std::int64_t most = -1;
    for (const BatchSegment &s : m_segments) {
        if (s.isReal())
            most = std::max(most, s.end() - 1 + offset(choice, s));
    }
    return most;
}

} // namespace posenc
