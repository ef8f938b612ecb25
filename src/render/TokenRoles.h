#pragma once

#include "QCustomPlot.h"

#include "core/Params.h"

#include <QList>
#include <QString>

#include <cstdint>

namespace posenc {

// The role of a token at a position, as the masked-dropout question puts them: of the special
// positions (--special), [CLS] opens the sequence at 0, [SEP] closes it at seq_len - 1, [MASK]
// stands at the others, and the positions from seq_len to max_len are padding.
struct TokenRole
{
    std::int64_t position = 0;
    QString name; // "[CLS]", "[SEP]", "[MASK]"
};

namespace TokenRoles {

// Whether the dropout mode of `params` treats rows by their role: protect-special (the special
// rows pass) and masked-fill (the padding is zeroed). Under sum and embedding no row differs,
// and a figure of them marks none, so that no row looks protected.
bool matter(const Params &params);
// The named positions, in order of position: the rows `special` names, [CLS] at 0, [SEP] at
// seq_len - 1, [MASK] between; none where it names none.
QList<TokenRole> of(const Params &params);
// The padding rows [seq_len, max_len); empty when the sequence fills the table.
std::pair<std::int64_t, std::int64_t> padding(const Params &params);
// "[CLS] at 0, [SEP] at 15, padding 16–1,023 (hatched, seq_len 16)", or "no special token, ...",
// for a subtitle.
QString text(const Params &params);

} // namespace TokenRoles

// The token roles marked on a heatmap's rows: each role's row outlined and named on the right
// axis, the padding rows hatched (their cells stay readable beneath). Items of the plot, made
// again at each update.
class TokenRoleMarks
{
public:
    explicit TokenRoleMarks(QCPAxisRect *rect);
    ~TokenRoleMarks();
    TokenRoleMarks(const TokenRoleMarks &) = delete;
    TokenRoleMarks &operator=(const TokenRoleMarks &) = delete;

    // Marks the roles of `params`, none where they do not matter (TokenRoles::matter); `named`:
    // named on the rect's right axis too (else only outlined).
    void update(const Params &params, bool named);

private:
    // A rectangle across the rect over the rows [lower, upper] of the position axis.
    struct RowMark
    {
        QCPItemRect *item;
        double lower;
        double upper;
    };

    void clear();
    void addMark(QCPItemRect *item, double lower, double upper);
    // Each mark drawn over the part of its rows in view, hidden when none is: an SVG keeps no clip
    // path, so a mark clipped to the axis rect would still run over the ticks and the next panels.
    void fitToView(const QCPRange &rows);

    QCPAxisRect *m_rect;
    QList<RowMark> m_marks;
    QMetaObject::Connection m_followRows;
};

} // namespace posenc
