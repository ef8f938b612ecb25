#include "ParamUse.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ParamUse {

namespace {

// Whether dropout can drop anything: training with p > 0.
bool drops(const Params &params)
{
    return params.training && params.dropout > 0.0;
}

std::optional<Idle> embeddingIdle(const Params &params)
{
    if (params.embeddingColumns() == 0)
        return Idle::NoEmbeddingColumns;
    return std::nullopt;
}

std::optional<Idle> initIdle(const Params &params)
{
    if (params.embeddings)
        return Idle::EmbeddingsFromFile;
    return embeddingIdle(params);
}

std::optional<Idle> specialIdle(const Params &params)
{
    if (params.dropoutMode != DropoutMode::ProtectSpecial)
        return Idle::NotProtectSpecial;
    if (!params.training)
        return Idle::EvaluationMode;
    if (params.dropout == 0.0)
        return Idle::NothingDropped;
    return std::nullopt;
}

// masked-fill zeroes the rows from seq_len on, in training and evaluation alike; protect-special
// counts its negative positions back from seq_len.
std::optional<Idle> seqLenIdle(const Params &params)
{
    if (params.dropoutMode == DropoutMode::MaskedFill)
        return std::nullopt;
    if (params.dropoutMode != DropoutMode::ProtectSpecial)
        return Idle::NoRowsToResolve;
    if (const auto idle = specialIdle(params))
        return idle;
    const bool fromEnd
        = std::any_of(params.special.begin(), params.special.end(), [](std::int64_t s) { return s < 0; });
    return fromEnd ? std::nullopt : std::optional(Idle::NoRowsToResolve);
}

} // namespace

bool drawsEmbeddings(const Params &params)
{
    return !params.embeddings && params.embeddingColumns() > 0;
}

bool drawsMask(const Params &params)
{
    // p = 1 drops every cell whatever the draw.
    return drops(params) && params.dropout < 1.0;
}

std::optional<Idle> idle(const Params &params, const QString &key)
{
    if (key == u"d-model"_s)
        return params.embeddings ? std::optional(Idle::SetByMatrix) : std::nullopt;
    if (key == u"base"_s || key == u"layout"_s || key == u"angles"_s)
        return params.peColumns() == 0 ? std::optional(Idle::NoPeColumns) : std::nullopt;
    if (key == u"scale"_s)
        return embeddingIdle(params);
    if (key == QString::fromUtf16(kCustomScale)) {
        if (params.scaleKind != ScaleKind::Custom)
            return Idle::NotCustomScale;
        return embeddingIdle(params);
    }
    if (key == u"init"_s)
        return initIdle(params);
    if (key == QString::fromUtf16(kCustomSigma)) {
        if (const auto idle = initIdle(params))
            return idle;
        return params.init != InitKind::Custom ? std::optional(Idle::NotCustomInit) : std::nullopt;
    }
    if (key == u"pe-dims"_s)
        return params.compose != Compose::Concat ? std::optional(Idle::NotConcat) : std::nullopt;
    if (key == u"dropout"_s)
        return params.training ? std::nullopt : std::optional(Idle::EvaluationMode);
    if (key == u"special"_s)
        return specialIdle(params);
    if (key == u"seq-len"_s)
        return seqLenIdle(params);
    if (key == u"seed"_s)
        return drawsEmbeddings(params) || drawsMask(params) ? std::nullopt : std::optional(Idle::NothingRandom);
    return std::nullopt;
}

} // namespace posenc::ParamUse
