#include "ParamTips.h"

#include "ParamLabels.h"

#include "core/Frequencies.h"
#include "core/ParamText.h"

#include <QCoreApplication>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ParamTips {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ParamTips", text);
}

QString num(double value)
{
    return QString::number(value, 'g', 5);
}

bool isKey(const QString &key, const char16_t *name)
{
    return key == QString::fromUtf16(name);
}

QString modeName(const Params &params)
{
    return ParamText::toString(params.dropoutMode);
}

// The embedding's expected squared norm against the PE's: what s and sigma balance.
QString balance(const Params &params)
{
    const double s = params.scale();
    const auto peColumns = static_cast<double>(params.peColumns());
    const QString pe = tr("‖PE<sub>p</sub>‖² ≈ %1").arg(num(peColumns / 2.0));
    if (params.embeddings)
        return pe;
    const double e = s * s * params.sigma() * params.sigma() * static_cast<double>(params.embeddingColumns());
    return tr("E‖s·E<sub>p</sub>‖² = s²σ²·%1 = %2 against %3").arg(params.embeddingColumns()).arg(num(e)).arg(pe);
}

QString seedDraws(const Params &params)
{
    const bool e = ParamUse::drawsEmbeddings(params);
    const bool m = ParamUse::drawsMask(params);
    if (e && m)
        return tr("the embeddings E and the mask M");
    if (e)
        return tr("only the embeddings E: no mask is drawn");
    if (m)
        return tr("only the mask M: E comes from the loaded matrix");
    return tr("nothing");
}

// Why no mask is drawn: evaluation mode, or a p that keeps or drops every cell.
QString noMaskReason(const Params &params)
{
    if (!params.training)
        return tr("evaluation mode draws no mask");
    return params.dropout >= 1.0 ? tr("dropout 1 drops every cell whatever the draw")
                                 : tr("dropout 0 keeps every cell");
}

QString flag(const QString &key)
{
    if (isKey(key, ParamUse::kCustomScale))
        return u"--scale NUMBER"_s;
    if (isKey(key, ParamUse::kCustomSigma))
        return u"--init SIGMA"_s;
    if (key == u"eval"_s)
        return u"--eval"_s;
    return u"--%1 %2"_s.arg(key, ParamText::valueName(key));
}

QString title(const QString &key)
{
    if (isKey(key, ParamUse::kCustomScale))
        return tr("scale (custom)");
    if (isKey(key, ParamUse::kCustomSigma))
        return tr("init (custom σ)");
    return ParamLabels::label(key);
}

} // namespace

QString formula(const QString &key, const Params &p)
{
    if (key == u"d-model"_s)
        return tr("d, the model width: columns j = 0 … d−1 of every table. Pair i of the PE turns at "
                  "w<sub>i</sub> = b<sup>−2i/d</sup>, i = 0 … ⌈d/2⌉−1, and ‖PE<sub>p</sub>‖² = d/2.");
    if (key == u"max-len"_s)
        return tr("L, the positions p = 0 … L−1: the rows of every table.");
    if (key == u"base"_s) {
        QString text = tr("b in w<sub>i</sub> = b<sup>−2i/d</sup>, the angular frequency of pair i in "
                          "PE = sin(p·w<sub>i</sub>), cos(p·w<sub>i</sub>).");
        if (const std::int64_t k = p.peColumns(); k > 0 && std::isfinite(p.base) && p.base > 1.0)
            text += tr(" The wavelengths 2π/w<sub>i</sub> run from 2π to %1 positions now.")
                        .arg(num(Frequencies::wavelength(Frequencies::pairCount(k) - 1, k, p.base)));
        return text;
    }
    if (key == u"layout"_s)
        return tr("interleaved: column 2i holds sin(p·w<sub>i</sub>), column 2i+1 cos(p·w<sub>i</sub>) (the paper, "
                  "PyTorch).<br>split: the first ⌈d/2⌉ columns hold the sines, the rest the cosines (TensorFlow, "
                  "tensor2tensor).");
    if (key == u"angles"_s)
        return tr("exact: the angle p·w<sub>i</sub> formed in double, every value within 10<sup>−6</sup> of the "
                  "true sine or cosine.<br>float32: the angle rounded to float32 first, fl(p)·fl(w<sub>i</sub>), as "
                  "float32 code computes it: the error grows with p.");
    if (key == u"scale"_s)
        return tr("s in X = s·E + PE: 1, √d (the paper, section 3.4) or a custom number; now s = %1. It sets the "
                  "balance: %2.")
            .arg(num(p.scale()), balance(p));
    if (isKey(key, ParamUse::kCustomScale))
        return tr("A custom s in X = s·E + PE: a finite number ≥ 0.");
    if (key == u"init"_s)
        return tr("σ in E ~ N(0, σ²): 1 (nn.Embedding's default), d<sup>−1/2</sup> (fairseq) or a custom σ; "
                  "now σ = %1.")
            .arg(num(p.sigma()));
    if (isKey(key, ParamUse::kCustomSigma))
        return tr("A custom σ in E ~ N(0, σ²): a finite number ≥ 0.");
    if (key == u"compose"_s)
        return tr("sum: X = s·E + PE, both in every column.<br>concat: X = [s·E | PE], s·E in the first d − k "
                  "columns and the PE of a k-column table in the last k.");
    if (key == u"pe-dims"_s) {
        QString text = tr("k in X = [s·E | PE]: the PE's columns, the last k of X; auto: k = ⌊d/2⌋.");
        if (p.compose == Compose::Concat)
            text += tr(" Now X's columns %1 … %2 hold the PE.").arg(p.dModel - p.peColumns()).arg(p.dModel - 1);
        return text;
    }
    if (key == u"dropout"_s) {
        QString text = tr("p in Y = M ⊙ X / (1 − p), M ~ Bernoulli(1 − p): each cell is zeroed with probability p "
                          "and the survivors are scaled by 1/(1 − p), so that E[Y] = X.");
        text += p.dropout < 1.0 ? tr(" Now 1/(1 − p) = %1.").arg(num(1.0 / (1.0 - p.dropout)))
                                : tr(" p = 1 zeroes every cell, and nothing is divided by zero.");
        return text;
    }
    if (key == u"dropout-mode"_s) {
        QString text = tr("Where dropout acts:<br>sum: Y = dropout(s·E + PE) (the paper, PyTorch, TensorFlow)<br>"
                          "embedding: Y = dropout(s·E) + PE: the positions survive every drop<br>"
                          "protect-special: as sum, but the special rows pass untouched<br>"
                          "masked-fill: X.masked_fill(attention_mask == 0, 0), then dropout: the padding rows "
                          "p ≥ seq_len are zeroed and nothing is protected");
        if (!p.training)
            text += tr("<br>In evaluation mode only masked-fill changes Y: it still zeroes the padding rows.");
        return text;
    }
    if (key == u"special"_s) {
        QStringList rows;
        for (const std::int64_t row : p.specialRows())
            rows << QString::number(row);
        if (rows.size() > 8)
            rows = rows.mid(0, 8) << u"…"_s;
        return tr("The rows protect-special passes untouched, neither dropped nor rescaled: Y<sub>p</sub> = "
                  "X<sub>p</sub>. 0 is [CLS]; a negative position counts back from the end of the sequence: −1 is "
                  "seq_len − 1, where [SEP] sits. Now rows %1.")
            .arg(rows.isEmpty() ? tr("none") : rows.join(u", "_s));
    }
    if (key == u"seq-len"_s)
        return tr("n, the length of the sequence: positions p ≥ n are padding. masked-fill zeroes them, as "
                  "X.masked_fill(attention_mask == 0, 0) does; protect-special counts its negative positions back "
                  "from n. auto: n = max_len; now n = %1.")
            .arg(p.sequenceLength());
    if (key == u"seed"_s)
        return tr("The seed of E ~ N(0, σ²) and of the dropout mask M: cell (p, j) is a pure function of (seed, p, "
                  "j), the same in every view and at any thread count. Now it draws %1.")
            .arg(seedDraws(p));
    if (key == u"eval"_s)
        return tr("Evaluation mode, as model.eval(): dropout is the identity, Y = X; masked-fill still zeroes the "
                  "padding rows.");
    return ParamText::describe(key);
}

QString idleText(const QString &key, const Params &p)
{
    const auto idle = ParamUse::idle(p, key);
    if (!idle)
        return {};
    using Idle = ParamUse::Idle;
    switch (*idle) {
    case Idle::SetByMatrix:
        return tr("d_model comes from the loaded matrix (%1 columns); File > Use random embeddings frees it.")
            .arg(p.embeddings->values.cols());
    case Idle::EmbeddingsFromFile:
        return tr("the embeddings are the rows of %1, not random; File > Use random embeddings brings "
                  "N(0, σ²) back.")
            .arg(p.embeddings->source.isEmpty() ? tr("the loaded matrix") : p.embeddings->source);
    case Idle::NoEmbeddingColumns:
        return tr("concat with pe_dims = d_model leaves no column for s·E.");
    case Idle::NoPeColumns:
        return tr("concat with pe_dims 0 leaves no column for the PE.");
    case Idle::NotCustomScale:
        return tr("only a custom scale reads it; the scale is %1.").arg(ParamText::get(p, u"scale"_s));
    case Idle::NotCustomInit:
        return tr("only a custom init reads it; the init is %1.").arg(ParamText::get(p, u"init"_s));
    case Idle::NotConcat:
        return tr("only compose concat has PE columns of its own; compose is sum.");
    case Idle::EvaluationMode:
        return tr("evaluation mode (eval) drops nothing.");
    case Idle::NothingDropped:
        return tr("dropout 0 drops nothing, so no row needs protecting.");
    case Idle::NotProtectSpecial:
        return tr("only dropout mode protect-special reads it; the mode is %1.").arg(modeName(p));
    case Idle::NoRowsToResolve:
        return p.dropoutMode == DropoutMode::ProtectSpecial
            ? tr("protect-special reads it only for a special position counted from the end (a negative one); "
                 "special is %1.")
                  .arg(ParamText::get(p, u"special"_s))
            : tr("only dropout mode masked-fill (its padding rows) and protect-special (its positions counted "
                 "from the end) read it; the mode is %1.")
                  .arg(modeName(p));
    case Idle::NothingRandom:
        return tr("nothing is random now: the embeddings come from the loaded matrix and %1.").arg(noMaskReason(p));
    }
    return {};
}

QString tooltip(const QString &key, const Params &params)
{
    QString text = u"<b>%1</b>&nbsp;&nbsp;<code>%2</code>"_s.arg(title(key), flag(key).toHtmlEscaped());
    if (const QString why = idleText(key, params); !why.isEmpty())
        text += u"<br><i>%1 %2</i>"_s.arg(tr("Not used now:"), why);
    return text + u"<br>"_s + formula(key, params);
}

} // namespace posenc::ParamTips
