#pragma once

#include <QRegularExpression>
#include <QString>

// How a lesson should write a model's possessive, the rule stated for the tests that read lessons
// (docs/ARCHITECTURE.md, Lessons): on the model's name before the words that qualify it ("DiT-XL/2
// at 256 pixels": "DiT-XL/2's", as masked-dropout's "DiT-XL/2 at 256 pixels' d" did not read), and
// after an s an apostrophe alone ("PyTorch nn.Embedding defaults'").
namespace ModelPossessive {

// The name without the words that qualify it: "DiT-XL/2".
inline QString head(const QString &name)
{
    static const QRegularExpression qualifier(QStringLiteral(" (?:at|with|for|on|in|of|from|under) "));
    const QRegularExpressionMatch m = qualifier.match(name);
    return m.hasMatch() && m.capturedStart() > 0 ? name.left(m.capturedStart()) : name;
}

// The name as a sentence names it within: a title's "The" is lower case there ("the Annotated
// Transformer's code"); a description's article (a preset's "article") comes before the name.
inline QString within(const QString &name)
{
    const QString h = head(name);
    return h.startsWith(QStringLiteral("The ")) ? QStringLiteral("the") + h.mid(3) : h;
}

// Whether `text` names the model, at a sentence's start or within one.
inline bool namedIn(const QString &text, const QString &name)
{
    return text.contains(head(name)) || text.contains(within(name));
}

inline QString of(const QString &name)
{
    const QString h = head(name);
    return h + (h.endsWith(u's') ? QStringLiteral("'") : QStringLiteral("'s"));
}

} // namespace ModelPossessive
