#include "StartPanel.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace posenc {

StartPanel::StartPanel(const QList<Lesson> &lessons, bool showAtStart, QWidget *parent)
    : QDialog(parent)
    , m_showAtStart(new QCheckBox(tr("Show this at every start")))
{
    setObjectName(u"startPanel"_s);
    setWindowTitle(tr("Lessons — PosEnc Explorer"));
    auto *heading = new QLabel(tr("What would you like to understand?"));
    QFont headingFont = heading->font();
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.4);
    headingFont.setBold(true);
    heading->setFont(headingFont);
    auto *intro = new QLabel(tr("Each lesson sets the parameters and views that answer one question, and explains "
                                "the answer beside them with the numbers of the parameters as you change them. "
                                "Every lesson is also in the Lessons menu."));
    intro->setWordWrap(true);

    auto *list = new QWidget;
    auto *listLayout = new QVBoxLayout(list);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->setSpacing(4);
    // Each lesson as its question, a link that opens it, and its title below: labels wrap long
    // questions where a command link button would cut them.
    for (const Lesson &lesson : lessons) {
        auto *entry = new QLabel(u"<a href=\"%1\"><b>%2</b></a><br>%3"_s.arg(
            lesson.name, lesson.question.toHtmlEscaped(), lesson.title.toHtmlEscaped()));
        entry->setObjectName(u"lesson-"_s + lesson.name);
        entry->setWordWrap(true);
        entry->setTextFormat(Qt::RichText);
        entry->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        entry->setContentsMargins(8, 6, 8, 6);
        entry->setToolTip(tr("Open the lesson %1").arg(lesson.title));
        connect(entry, &QLabel::linkActivated, this, [this](const QString &name) {
            emit lessonChosen(name);
            accept();
        });
        listLayout->addWidget(entry);
    }
    listLayout->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setWidget(list);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_showAtStart->setObjectName(u"showAtStart"_s);
    m_showAtStart->setChecked(showAtStart);
    auto *buttons = new QDialogButtonBox;
    QPushButton *explore = buttons->addButton(tr("Explore on my own"), QDialogButtonBox::RejectRole);
    explore->setObjectName(u"exploreButton"_s);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_showAtStart);
    bottom->addStretch(1);
    bottom->addWidget(buttons);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(intro);
    layout->addWidget(scroll, 1);
    layout->addLayout(bottom);
    resize(720, 500);
}

bool StartPanel::showAtStart() const
{
    return m_showAtStart->isChecked();
}

} // namespace posenc
