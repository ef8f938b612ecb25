#include "MropePrompt.h"

#include "MropeProcessor.h"

#include "core/NumberText.h"
#include "core/ParamError.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr std::int64_t kMaxGrid = std::int64_t(1) << 24;

std::optional<std::int64_t> count(const QString &text, std::int64_t most)
{
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    if (!ok || v < 1 || v > most)
        return std::nullopt;
    return v;
}

// A positive finite number with `unit` after it ("2s", "2fps"), or none.
std::optional<double> measure(const QString &text, const QString &unit, double most)
{
    if (!text.endsWith(unit))
        return std::nullopt;
    bool ok = false;
    const double v = text.chopped(unit.size()).trimmed().toDouble(&ok);
    return ok && std::isfinite(v) && v > 0.0 && v <= most ? std::optional(v) : std::nullopt;
}

// "HxWpx" of an image, "HxWpx@Ds[@Ffps]" of a video, as the processors turn them into grids
// (MropeProcessor), or the problem.
std::variant<MropeSegment, QString> pixels(MropeSegment segment, const QString &part, const QString &arg,
                                           std::int64_t merge)
{
    const bool video = segment.kind == MropeSegment::Kind::Video;
    const QStringList pieces = arg.split(u'@');
    const QString form = video ? u"video:HxWpx@Ds[@Ffps] (height and width in pixels, seconds, frames a second)"_s
                               : u"image:HxWpx (height and width in pixels)"_s;
    const QStringList sides = pieces[0].chopped(2).split(u'x');
    std::optional<std::int64_t> h, w;
    if (sides.size() == 2) {
        h = count(sides[0], kMaxGrid);
        w = count(sides[1], kMaxGrid);
    }
    std::optional<double> seconds, fps = MropeProcessor::kDefaultFps;
    if (video && (pieces.size() == 2 || pieces.size() == 3)) {
        seconds = measure(pieces[1].trimmed(), u"s"_s, 1e6);
        if (pieces.size() == 3)
            fps = measure(pieces[2].trimmed(), u"fps"_s, 1e4);
    }
    if (!h || !w || (video && (!seconds || !fps)) || (!video && pieces.size() != 1))
        return u"%1: must be %2, each size an integer in [1, 16777216]"_s.arg(ParamError::quoted(part), form);
    const auto grid
        = video ? MropeProcessor::video(*h, *w, *seconds, *fps, merge) : MropeProcessor::image(*h, *w, merge);
    if (!grid)
        return u"%1: its aspect ratio is over 200, which the processor refuses"_s.arg(ParamError::quoted(part));
    segment.t = grid->t;
    segment.h = grid->h;
    segment.w = grid->w;
    if (video)
        segment.secondPerGrid = grid->secondPerGrid;
    segment.fromPixels = true;
    return segment;
}

// "TxHxW[@SECONDS]" of an image or a video, or their pixels and seconds, or the problem.
std::variant<MropeSegment, QString> grid(MropeSegment segment, const QString &part, const QString &arg,
                                         std::int64_t merge)
{
    if (arg.section(u'@', 0, 0).endsWith(u"px"_s))
        return pixels(segment, part, arg, merge);
    QString dims = arg;
    if (const qsizetype at = arg.indexOf(u'@'); at >= 0) {
        if (segment.kind != MropeSegment::Kind::Video)
            return u"%1: only a video takes @SECONDS (its second_per_grid)"_s.arg(ParamError::quoted(part));
        bool ok = false;
        const double seconds = arg.mid(at + 1).trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds < 0.0 || seconds > MropeParams::kMaxSecondPerGrid)
            return u"%1: @SECONDS must be a number in [0, 1e6]"_s.arg(ParamError::quoted(part));
        segment.secondPerGrid = seconds;
        dims = arg.left(at);
    }
    const QStringList sizes = dims.split(u'x');
    std::optional<std::int64_t> t, h, w;
    if (sizes.size() == 3) {
        t = count(sizes[0], kMaxGrid);
        h = count(sizes[1], kMaxGrid);
        w = count(sizes[2], kMaxGrid);
    }
    if (!t || !h || !w)
        return u"%1: a grid must be TxHxW, each an integer in [1, 16777216]"_s.arg(ParamError::quoted(part));
    segment.t = *t;
    segment.h = *h;
    segment.w = *w;
    return segment;
}

// Qwen2.5-VL's temporal offset of grid k, transformers 4.x: (arange(T) * second_per_grid_t *
// tokens_per_second).long(), left to right in float32 (second_per_grid_ts a float32 tensor), then
// truncated toward zero (modeling_qwen2_5_vl.py, get_rope_index).
std::int64_t qwen25OffsetV4(std::int64_t k, double secondPerGrid, double tokensPerSecond)
{
    const float a = static_cast<float>(k) * static_cast<float>(secondPerGrid);
    const float b = a * static_cast<float>(tokensPerSecond);
    return static_cast<std::int64_t>(std::trunc(b));
}

// transformers 5.x after PR #48669: time_interval = tokens_per_second * second_per_grid_t, then
// (arange(T) * time_interval).long() in get_vision_position_ids.
std::int64_t qwen25OffsetV5(std::int64_t k, double secondPerGrid, double tokensPerSecond)
{
    const float interval = static_cast<float>(tokensPerSecond) * static_cast<float>(secondPerGrid);
    return static_cast<std::int64_t>(std::trunc(static_cast<float>(k) * interval));
}

// Qwen3-VL's processor puts "<t.t seconds>" + <|vision_start|> before each temporal patch and
// <|vision_end|> after it, and get_rope_index splits a video into one (1, h, w) grid per patch
// (repeat_interleave of video_grid_thw): between two frames, the timestamp's tokens and two more.
std::vector<MropeSegment> framesOfQwen3(const std::vector<MropeSegment> &segments, std::int64_t timestampTokens)
{
    std::vector<MropeSegment> out;
    for (const MropeSegment &s : segments) {
        if (s.kind != MropeSegment::Kind::Video) {
            out.push_back(s);
            continue;
        }
        for (std::int64_t k = 0; k < s.t; ++k) {
            if (k > 0)
                out.push_back({MropeSegment::Kind::Text, timestampTokens + 2, 1, 1, 1, std::nullopt, false});
            MropeSegment frame = s;
            frame.t = 1;
            out.push_back(frame);
        }
    }
    return out;
}

} // namespace

namespace MropePrompt {

QString text(const std::vector<MropeSegment> &segments)
{
    QStringList parts;
    for (const MropeSegment &s : segments) {
        if (s.kind == MropeSegment::Kind::Text) {
            parts.append(u"text:%1"_s.arg(s.n));
            continue;
        }
        QString part = u"%1:%2x%3x%4"_s.arg(s.kind == MropeSegment::Kind::Image ? u"image"_s : u"video"_s)
                           .arg(s.t)
                           .arg(s.h)
                           .arg(s.w);
        if (s.secondPerGrid)
            part += u"@"_s + NumberText::exact(*s.secondPerGrid);
        parts.append(part);
    }
    return parts.join(u',');
}

QString form()
{
    return u"segments text:N, image:TxHxW or video:TxHxW[@SECONDS] (or image:HxWpx, video:HxWpx@Ds[@Ffps] in pixels "
           "and seconds) separated by commas"_s;
}

namespace {

std::variant<std::vector<MropeSegment>, QString> parseText(const QString &text, std::int64_t mergeSize)
{
    std::vector<MropeSegment> segments;
    const QStringList parts = text.split(u',');
    for (const QString &raw : parts) {
        const QString part = raw.trimmed();
        const qsizetype colon = part.indexOf(u':');
        const QString kind = colon < 0 ? part : part.left(colon).trimmed();
        const QString arg = colon < 0 ? QString() : part.mid(colon + 1).trimmed();
        MropeSegment segment;
        if (kind == u"text"_s) {
            const auto n = count(arg, kMaxTokens);
            if (!n)
                return u"%1: text:N needs N in [1, 16777216]"_s.arg(ParamError::quoted(part));
            segment.n = *n;
            segments.push_back(segment);
            continue;
        }
        if (kind != u"image"_s && kind != u"video"_s)
            return u"%1: unknown kind %2 (text, image or video)"_s.arg(ParamError::quoted(part),
                                                                       ParamError::quoted(kind));
        segment.kind = kind == u"image"_s ? MropeSegment::Kind::Image : MropeSegment::Kind::Video;
        auto parsed = grid(segment, part, arg, std::clamp<std::int64_t>(mergeSize, 1, MropeParams::kMaxMergeSize));
        if (const auto *problem = std::get_if<QString>(&parsed))
            return *problem;
        segments.push_back(std::get<MropeSegment>(parsed));
    }
    return segments;
}

} // namespace

std::variant<std::vector<MropeSegment>, QString> parse(const QString &text, std::int64_t mergeSize)
{
    // Every validation of a Params reads its prompt (Params::validate, under any family: a
    // config's check validates each layer's), most often the same text: the last one read on
    // this thread is kept with its reading.
    struct Last
    {
        QString text;
        std::optional<std::int64_t> mergeSize;
        std::variant<std::vector<MropeSegment>, QString> read;
    };
    thread_local Last last;
    if (last.mergeSize != mergeSize || last.text != text) {
        last.read = parseText(text, mergeSize);
        last.text = text;
        last.mergeSize = mergeSize;
    }
    return last.read;
}

} // namespace MropePrompt

MropeLayout::MropeLayout(const Params &params)
    : MropeLayout(std::get<MropeLayout>(build(params.mrope)))
{ }

std::variant<MropeLayout, QString> MropeLayout::build(const MropeParams &mrope)
{
    auto parsed = MropePrompt::parse(mrope.prompt, mrope.spatialMergeSize);
    if (const auto *problem = std::get_if<QString>(&parsed))
        return *problem;
    std::vector<MropeSegment> segments = std::get<std::vector<MropeSegment>>(std::move(parsed));
    // The rules' other inputs within their rows' ranges, which those rows name to the user: a
    // merge size of 0 divides by zero, an infinite time product has no integer id.
    const std::int64_t m = mrope.spatialMergeSize;
    if (m < 1 || m > MropeParams::kMaxMergeSize)
        return u"spatial-merge-size %1 is not in [1, %2]"_s.arg(m).arg(MropeParams::kMaxMergeSize);
    if (!(mrope.tokensPerSecond > 0.0 && mrope.tokensPerSecond <= MropeParams::kMaxTokensPerSecond))
        return u"tokens-per-second %1 is not in (0, 1e6]"_s.arg(mrope.tokensPerSecond);
    if (!(mrope.secondPerGrid >= 0.0 && mrope.secondPerGrid <= MropeParams::kMaxSecondPerGrid))
        return u"second-per-grid %1 is not in [0, 1e6]"_s.arg(mrope.secondPerGrid);
    if (mrope.timestampTokens < 0 || mrope.timestampTokens > MropeParams::kMaxTimestampTokens)
        return u"timestamp-tokens %1 is not in [0, %2]"_s.arg(mrope.timestampTokens)
            .arg(MropeParams::kMaxTimestampTokens);
    for (const MropeSegment &s : segments) {
        if (s.kind != MropeSegment::Kind::Text && (s.h % m != 0 || s.w % m != 0))
            return u"the %1 grid %2x%3x%4 is not divisible by spatial-merge-size %5 in height and width"_s
                .arg(s.kind == MropeSegment::Kind::Image ? u"image"_s : u"video"_s)
                .arg(s.t)
                .arg(s.h)
                .arg(s.w)
                .arg(m);
    }
    if (mrope.vision == MropeVision::Qwen3Vl) {
        for (const MropeSegment &s : segments) {
            if (s.fromPixels)
                return u"sizes in pixels follow Qwen2-VL's and Qwen2.5-VL's processors (patch 14); give Qwen3-VL's "
                       "grids as TxHxW"_s;
        }
        std::int64_t frames = 0;
        for (const MropeSegment &s : segments)
            frames += s.kind == MropeSegment::Kind::Video ? s.t : 0;
        if (frames > kMaxSpans / 2)
            return u"its videos hold more than 524288 frames, each a span of its own in Qwen3-VL"_s;
        segments = framesOfQwen3(segments, mrope.timestampTokens);
    }

    MropeLayout layout;
    std::int64_t position = 0;
    for (const MropeSegment &s : segments) {
        Span span;
        span.firstRow = layout.m_tokens;
        span.start = position;
        if (s.kind == MropeSegment::Kind::Text) {
            span.rows = s.n;
            position += s.n;
            layout.m_maxId = std::max(layout.m_maxId, position - 1);
        } else {
            const bool video = s.kind == MropeSegment::Kind::Video;
            span.kind = video ? MropeTokenKind::Video : MropeTokenKind::Image;
            span.gridT = s.t;
            span.gridH = s.h / m;
            span.gridW = s.w / m;
            if (span.gridT * span.gridH > kMaxGrid || span.gridT * span.gridH * span.gridW > MropePrompt::kMaxTokens)
                return u"the prompt holds more than 16777216 tokens"_s;
            span.rows = span.gridT * span.gridH * span.gridW;
            span.secondPerGrid = s.secondPerGrid.value_or(mrope.secondPerGrid);
            span.tokensPerSecond = mrope.tokensPerSecond;
            if (mrope.vision == MropeVision::Qwen25Vl && mrope.era == MropeEra::V4)
                span.time = video ? Span::Time::ProductV4 : Span::Time::Zero;
            else if (mrope.vision == MropeVision::Qwen25Vl && video)
                span.time = Span::Time::ProductV5;
            // Each rule is non-decreasing in k (float32 rounding and truncation are monotonic).
            const std::int64_t lastT = span.tOffset(span.gridT - 1);
            if (video && span.time != Span::Time::Index) {
                for (std::int64_t k = 1; k < span.gridT; ++k)
                    layout.m_collapsedGrids += span.tOffset(k) == span.tOffset(k - 1) ? 1 : 0;
            }
            const std::int64_t spanMax = position + std::max({lastT, span.gridH - 1, span.gridW - 1});
            layout.m_maxId = std::max(layout.m_maxId, spanMax);
            (video ? layout.m_videoTokens : layout.m_imageTokens) += span.rows;
            position = mrope.era == MropeEra::V4 ? spanMax + 1 : position + std::max(span.gridH, span.gridW);
        }
        layout.m_tokens += span.rows;
        if (layout.m_tokens > MropePrompt::kMaxTokens || std::ssize(layout.m_spans) >= kMaxSpans)
            return u"the prompt holds more than 16777216 tokens"_s;
        if (layout.m_maxId >= MropePrompt::kMaxId || position >= MropePrompt::kMaxId)
            return u"its position ids reach past 16777215, which float32 tables cannot hold exactly"_s;
        layout.m_spans.push_back(std::move(span));
    }
    return layout;
}

std::int64_t MropeLayout::Span::tOffset(std::int64_t k) const
{
    switch (time) {
    case Time::Index:
        break;
    case Time::Zero:
        return 0;
    case Time::ProductV4:
        return qwen25OffsetV4(k, secondPerGrid, tokensPerSecond);
    case Time::ProductV5:
        return qwen25OffsetV5(k, secondPerGrid, tokensPerSecond);
    }
    return k;
}

MropeIds MropeLayout::ids(std::int64_t row) const
{
    MropeIds out;
    ids(row, 1, &out);
    return out;
}

void MropeLayout::ids(std::int64_t row, std::int64_t count, MropeIds *out) const
{
    auto span = std::upper_bound(m_spans.begin(), m_spans.end(), row,
                                 [](std::int64_t r, const Span &s) { return r < s.firstRow; });
    --span;
    for (std::int64_t i = 0; i < count; ++i, ++row) {
        while (row >= span->firstRow + span->rows)
            ++span;
        const std::int64_t n = row - span->firstRow;
        MropeIds &ids = out[i];
        ids.kind = span->kind;
        if (span->kind == MropeTokenKind::Text) {
            ids.t = ids.h = ids.w = span->start + n;
            continue;
        }
        const std::int64_t frame = span->gridH * span->gridW;
        ids.t = span->start + span->tOffset(n / frame);
        ids.h = span->start + (n / span->gridW) % span->gridH;
        ids.w = span->start + n % span->gridW;
    }
}

} // namespace posenc
