//! What goes out: a [`Reply`] is a list of [`Output`]s (to the asker, the channel, a player's DMs, an
//! update in place), each a [`Message`] of translatable lines with an optional image descriptor, file and
//! buttons; the message components (buttons, menus) made for one message, within Discord's limits; and the
//! suggestions of an autocomplete.

use crate::engine::{Game, View};
use crate::i18n::Lang;

use super::ids::UserId;
use super::request::{Button, Press, Step};
use super::text::Text;
use super::text::{button_label, CardLine, ProfileInfo};

// Discord's limits on message components (docs: components reference, "Action Row", "Button",
// "String Select", "Select Option").
/// Action rows on one message.
pub const MAX_ROWS: usize = 5;
/// Buttons in one action row (a select menu is alone in its row).
pub const MAX_BUTTONS_PER_ROW: usize = 5;
/// Options of one select menu.
pub const MAX_OPTIONS: usize = 25;
/// Characters of a button label.
pub const MAX_BUTTON_LABEL: usize = 80;
/// Characters of a select option's label, value and description.
pub const MAX_OPTION_TEXT: usize = 100;
/// Characters of a select menu's placeholder.
pub const MAX_PLACEHOLDER: usize = 150;
/// Characters of a link button's URL.
pub const MAX_URL: usize = 512;

/// The custom id of **Open the board** ([`Message::activity`]): the face answers its press itself
/// (Discord launches the Activity); it never reaches the service.
pub const ACTIVITY_ID: &str = "sequence:activity";

/// How a button is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// The main action (blurple).
    Primary,
    /// A secondary action (grey).
    Secondary,
    /// A good action (green).
    Success,
    /// A destructive action (red).
    Danger,
}

/// The words on a component, rendered in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// Not translated (a cell name, a list of cells).
    Plain(String),
    /// A translated text.
    Text(Text),
    /// A card and what it does now.
    Card(CardLine),
    /// A fixed button's label.
    Button(Button),
}

impl Label {
    /// The label in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Label::Plain(text) => text.clone(),
            Label::Text(text) => text.render(lang),
            Label::Card(line) => line.render(lang),
            Label::Button(button) => button_label(*button, lang),
        }
    }
}

/// One choice of a select menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectOption {
    /// What Discord sends back when it is chosen.
    pub value: String,
    /// What the user sees.
    pub label: Label,
    /// A second line under the label.
    pub description: Option<Label>,
}

/// A button, a link or a select menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control {
    /// A button.
    Button {
        /// Sent back when pressed.
        id: String,
        /// The words on it.
        label: Label,
        /// How it looks.
        style: Style,
        /// Shown but not pressable.
        disabled: bool,
    },
    /// A select menu of one choice.
    Select {
        /// Sent back with the chosen value.
        id: String,
        /// Shown before anything is chosen.
        placeholder: Label,
        /// The choices.
        options: Vec<SelectOption>,
    },
    /// A button that opens a web page (nothing is sent back to the bot: it has no id).
    Link {
        /// The words on it.
        label: Label,
        /// The page, an absolute `http(s)` URL of at most [`MAX_URL`] characters.
        url: String,
    },
}

impl Control {
    /// **Open the board**: the button that launches the Discord Activity ([`ACTIVITY_ID`]).
    pub fn activity() -> Control {
        Control::Button {
            id: ACTIVITY_ID.to_string(),
            label: Label::Text(Text::ActivityButton),
            style: Style::Secondary,
            disabled: false,
        }
    }

    /// The control of a fixed button.
    pub fn fixed(button: Button) -> Control {
        let style = if button.is_primary() {
            Style::Primary
        } else if button.is_danger() {
            Style::Danger
        } else {
            Style::Secondary
        };
        Control::Button {
            id: button.id(),
            label: Label::Button(button),
            style,
            disabled: false,
        }
    }

    /// The custom id (a link has none: empty).
    pub fn id(&self) -> &str {
        match self {
            Control::Button { id, .. } | Control::Select { id, .. } => id,
            Control::Link { .. } => "",
        }
    }

    /// Whether it is drawn as a button (a link is one too); a select menu fills its row alone.
    pub fn is_button(&self) -> bool {
        matches!(self, Control::Button { .. } | Control::Link { .. })
    }
}

/// The action rows of a message: its own rows, then its fixed buttons, **Open the board** and last its
/// link (in the last row if there is room, else in rows of their own). What Discord, the console and
/// the tests all show.
pub fn action_rows(message: &Message) -> Vec<Vec<Control>> {
    let mut rows = message.components.clone();
    let mut fixed = message
        .buttons
        .iter()
        .map(|&b| Control::fixed(b))
        .chain(message.activity.then(Control::activity))
        .chain(message.link.clone())
        .peekable();
    if let Some(last) = rows.last_mut() {
        let buttons_only = last.iter().all(Control::is_button);
        while buttons_only && last.len() < MAX_BUTTONS_PER_ROW {
            match fixed.next() {
                Some(control) => last.push(control),
                None => break,
            }
        }
    }
    let rest: Vec<Control> = fixed.collect();
    rows.extend(rest.chunks(MAX_BUTTONS_PER_ROW).map(<[Control]>::to_vec));
    rows
}

/// A board picture to draw: always the public view, with the seat names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardImage {
    view: View,
    names: Vec<String>,
    targets: Vec<crate::engine::Cell>,
}

impl BoardImage {
    /// The board of a game as everyone sees it (no hand).
    pub fn of(game: &Game, names: Vec<String>) -> BoardImage {
        BoardImage {
            view: game.public_view(),
            names,
            targets: Vec::new(),
        }
    }

    /// The same board with the cells a picker step offers marked and labelled.
    pub fn with_targets(mut self, targets: Vec<crate::engine::Cell>) -> BoardImage {
        self.targets = targets;
        self
    }

    /// The cells to mark (a picker step's buttons; empty on a channel board).
    pub fn targets(&self) -> &[crate::engine::Cell] {
        &self.targets
    }

    /// The public view to draw.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// Seat names, by seat.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// A hand picture to draw: one seat's view, only ever sent to that seat's user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandImage {
    view: View,
}

impl HandImage {
    /// The hand of `seat`.
    pub(super) fn of(game: &Game, seat: u8) -> HandImage {
        HandImage {
            view: game.view(seat),
        }
    }

    /// The seat's view to draw.
    pub fn view(&self) -> &View {
        &self.view
    }
}

/// The profile card and its text to show for a command, as an image descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileImage {
    pub(super) info: Box<ProfileInfo>,
}

impl ProfileImage {
    /// The card's words in `lang`, for [`crate::render::profile_card`].
    pub fn card(&self, lang: crate::i18n::Lang) -> crate::render::ProfileCard {
        super::text::profile_card(&self.info, lang)
    }

    /// What the card shows.
    pub fn info(&self) -> &ProfileInfo {
        &self.info
    }
}

/// An image for a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Image {
    /// The board, public.
    Board(BoardImage),
    /// A hand, private.
    Hand(HandImage),
    /// A whole finished game, animated (GIF), public.
    Replay(ReplayImage),
    /// A player's profile card (PNG), public.
    Profile(ProfileImage),
}

/// The animated replay of a finished game: its record, the seats named by their colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayImage {
    /// The game.
    pub record: crate::engine::Record,
    /// The slot of a replay a member asked for, to give back with [`Tables::replay_posted`] once
    /// it is posted or could not be (`None`: the replay after a final message, which holds none).
    pub slot: Option<u64>,
}

/// A file attached to a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// The file name.
    pub filename: String,
    /// The contents.
    pub data: Vec<u8>,
}

/// A message to send: lines of text, and optionally an image, buttons and a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    /// The lines, each a translatable text.
    pub lines: Vec<Text>,
    /// An image to attach.
    pub image: Option<Image>,
    /// Fixed buttons below the message (after `components`, see [`action_rows`]).
    pub buttons: Vec<Button>,
    /// Action rows of buttons and menus made for this message (the picker, a turn's Play button).
    pub components: Vec<Vec<Control>>,
    /// A file to attach.
    pub attachment: Option<Attachment>,
    /// Users this message pings (everyone else named in it is shown, not pinged).
    pub mentions: Vec<UserId>,
    /// A link button to a web page, after every other button (the *Watch* link of a game).
    pub link: Option<Control>,
    /// Whether it carries **Open the board** (the Discord Activity of its channel's table), drawn
    /// after the fixed buttons and before the link.
    pub activity: bool,
}

impl Message {
    /// A message of one line.
    pub fn text(text: Text) -> Message {
        Message {
            lines: vec![text],
            ..Message::default()
        }
    }

    /// A message of several lines.
    pub fn text_lines(lines: Vec<Text>) -> Message {
        Message {
            lines,
            ..Message::default()
        }
    }

    /// The turn this message is the prompt of, if it carries a Play (or Roll) button.
    pub fn prompt_turn(&self) -> Option<u32> {
        self.components.iter().flatten().find_map(|control| {
            let press = Press::parse(control.id(), &[]).ok()?;
            matches!(press.step, Step::Play | Step::Roll).then_some(press.turn)
        })
    }

    /// The English text of the message, lines joined by newlines.
    pub fn to_english(&self) -> String {
        self.render(Lang::En)
    }

    /// The text of the message in `lang`, lines joined by newlines.
    pub fn render(&self, lang: Lang) -> String {
        self.lines
            .iter()
            .map(|line| line.render(lang))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// One thing to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// To the person who asked, visible only to them.
    Ephemeral(Message),
    /// To the channel.
    Channel(Message),
    /// A private message to a user. If it cannot be delivered, the Discord layer posts
    /// [`Text::DmFailed`] in the channel (which reveals nothing).
    Direct {
        /// The recipient.
        user: UserId,
        /// The message.
        message: Message,
    },
    /// To the person who pressed a button of the private picker: the picker message, updated in place
    /// (Discord's UPDATE_MESSAGE). Anywhere else it is sent like [`Output::Ephemeral`].
    Update(Message),
    /// An old turn prompt of the channel whose turn is over: its buttons become `buttons` (the Play
    /// button goes; the hand button stays while the game runs).
    Disarm {
        /// The posted prompt.
        message_id: u64,
        /// The buttons it keeps.
        buttons: Vec<Button>,
    },
    /// The lobby message: edit it in place (`message_id`), or post it and tell the service its id
    /// with [`Tables::set_lobby_message`].
    Lobby {
        /// The message to edit, if one was posted before.
        message_id: Option<u64>,
        /// The new contents.
        message: Message,
    },
}

impl Output {
    /// The message it carries (`None` for [`Output::Disarm`], which only changes an old message's buttons).
    pub fn message(&self) -> Option<&Message> {
        match self {
            Output::Channel(m)
            | Output::Ephemeral(m)
            | Output::Update(m)
            | Output::Lobby { message: m, .. }
            | Output::Direct { message: m, .. } => Some(m),
            Output::Disarm { .. } => None,
        }
    }
}

/// The service's answer to a request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// What to send, in order.
    pub outputs: Vec<Output>,
    /// A computer player (or the timer) is to move next: call [`Tables::auto_step`] until it returns
    /// `None`.
    pub auto_move: bool,
}

impl Reply {
    /// A reply that is only a private message to the asker.
    pub fn ephemeral(text: Text) -> Reply {
        Reply {
            outputs: vec![Output::Ephemeral(Message::text(text))],
            auto_move: false,
        }
    }

    /// Whether the reply is a refusal: exactly one private message and nothing else.
    pub fn is_refusal(&self) -> bool {
        matches!(self.outputs.as_slice(), [Output::Ephemeral(m) | Output::Update(m)] if m.lines.first().is_some_and(Text::is_error))
    }
}

/// One autocomplete suggestion: what the user sees, and the value filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Shown in the list.
    pub label: String,
    /// Sent as the option's value.
    pub value: String,
}
