use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::ImageEncoder;
use sequence_bot::engine::{Config, Options, Record, Variant};
use sequence_bot::render::{board_image, cli::game_after};
fn main() {
    let mode = std::env::args().nth(1).unwrap();
    let config = Config::new(Variant::Classic, 3, None, Options::default()).unwrap();
    let record = Record::random_game(config, 42);
    let game = game_after(&record, Some(record.actions.len() * 2 / 3)).unwrap();
    let img = board_image(&game.public_view(), &[]);
    let mut total = 0;
    for _ in 0..100 {
        let mut out = Vec::with_capacity(300_000);
        match mode.as_str() {
            "rgba" => PngEncoder::new_with_quality(
                &mut out,
                CompressionType::Level(1),
                FilterType::NoFilter,
            )
            .write_image(
                img.as_raw(),
                img.width(),
                img.height(),
                image::ExtendedColorType::Rgba8,
            )
            .unwrap(),
            "rgb" => {
                let raw: Vec<u8> = img
                    .as_raw()
                    .chunks_exact(4)
                    .flat_map(|p| [p[0], p[1], p[2]])
                    .collect();
                PngEncoder::new_with_quality(
                    &mut out,
                    CompressionType::Level(1),
                    FilterType::NoFilter,
                )
                .write_image(
                    &raw,
                    img.width(),
                    img.height(),
                    image::ExtendedColorType::Rgb8,
                )
                .unwrap()
            }
            "render" => {
                let _ = board_image(&game.public_view(), &[]);
            }
            "full" => {
                out = sequence_bot::render::board_png(&game.public_view(), &[]).unwrap();
            }
            _ => {}
        }
        total += out.len();
    }
    println!("{mode} {}", total / 100);
}
